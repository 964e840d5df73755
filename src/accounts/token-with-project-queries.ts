// The personal access token of a request together with the project its route names, in one statement
// (resolve-token-with-project.ts): token, user, project, namespace and the user's membership levels.
// A project-scoped API request otherwise reads them in three statements, which on PostgreSQL are three
// round trips. The project's and namespace's columns are prefixed (`p_`, `ns_`) because their names
// collide with the user's. Which columns: every column the tables have, read from the schema once per
// app (`tableColumns`), so that a column a migration adds reaches the project row here as it reaches
// `select *` everywhere else (docs/architecture.md, "Adding a project attribute").
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';
import type { Dialect } from '../platform/db/database.js';
import { chainLevelText, invitedGroupsText, invitedLevelText, namespaceChainText, projectMemberLevelText } from '../platform/auth/membership-queries.js';

export interface TokenWithProjectRow {
  token_id: number;
  scopes: string;
  expires_at: string | null;
  revoked: number;
  last_used_at: number | null;
  // The user's columns a request needs (TokenRow), unprefixed.
  [column: string]: unknown;
  p_id: number | null;
  ns_id: number | null;
  project_level: number | null;
  group_level: number | null;
  shared_level: number | null;
}

/** The tables the statement reads (the row cache, platform/db/reads.ts). */
export const TOKEN_WITH_PROJECT_TABLES: readonly CachedTable[] = ['personal_access_tokens', 'users', 'emails', 'projects', 'namespaces', 'members', 'group_group_links', 'project_group_links'];

/** The columns of a table, in order. */
export function tableColumns(dialect: Dialect, table: 'projects' | 'namespaces'): Statement {
  return dialect === 'postgres'
    ? q`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`
    : q`select name from pragma_table_info(${table}) order by cid`;
}

export interface TokenWithProjectStatements {
  /** The columns read as `p_<column>` and `ns_<column>`. */
  projectColumns: readonly string[];
  namespaceColumns: readonly string[];
  byId: TemplateStringsArray;
  byPath: TemplateStringsArray;
}

/**
 * The statement's text for the project matched by `match` (with one placeholder, the project's id or
 * path), as the template `q` would make of it: made once for each of the two ways a route names a
 * project. Two statements, not one with `p.id = ? or p.full_path_lower = ?`: SQLite runs that as
 * a lookup by each index, in both places it matches the project (~1.4 µs of the statement's ~15).
 * The membership levels are platform/auth/membership-queries.ts's. Placeholders, in order: the project
 * (the chain), today (group links), the project (project links), today (project links), today (project
 * members), today (group members), today (invited members), the project (the join), the token's digest.
 */
function template(match: string, projectColumns: readonly string[], namespaceColumns: readonly string[]): TemplateStringsArray {
  const columns = [...projectColumns.map((column) => `p.${column} as p_${column}`), ...namespaceColumns.map((column) => `ns.${column} as ns_${column}`)].join(', ');
  const text = `
    ${namespaceChainText(`projects p join namespaces n on n.id = p.namespace_id where ${match}`)}${invitedGroupsText(`(select p.id from projects p where ${match})`)}
    select u.id, u.username, u.name, u.state, u.admin, u.otp_required, u.last_activity_on, u.created_at,
      case when e.id is not null and e.confirmed_at is null then 1 else 0 end as address_unconfirmed, t.id as token_id, t.scopes, t.expires_at, t.revoked, t.last_used_at,
      ${columns},
      ${projectMemberLevelText('t.user_id', 'p.id')} as project_level,
      ${chainLevelText('t.user_id')} as group_level,
      ${invitedLevelText('t.user_id')} as shared_level
    from personal_access_tokens t
      join users u on u.id = t.user_id
      left join emails e on e.user_id = u.id and e.email_lower = u.email_lower
      left join projects p on ${match}
      left join namespaces ns on ns.id = p.namespace_id
    where t.token_digest = ?`;
  const parts = text.split('?');
  if (parts.length !== 10) throw new Error('token-with-project: the statement has nine placeholders');
  return templateOf(parts);
}

const SAFE_COLUMN = /^[a-z_][a-z0-9_]*$/;

export function tokenWithProjectStatements(projectColumns: readonly string[], namespaceColumns: readonly string[]): TokenWithProjectStatements {
  // Names from the schema, written into the text: only plain identifiers.
  for (const column of [...projectColumns, ...namespaceColumns]) if (!SAFE_COLUMN.test(column)) throw new Error(`token-with-project: unexpected column name ${column}`);
  return { projectColumns, namespaceColumns, byId: template('p.id = ?', projectColumns, namespaceColumns), byPath: template('p.full_path_lower = ?', projectColumns, namespaceColumns) };
}

/**
 * The token of this digest with its user, and the project named by id or, when `projectId` is 0, by
 * full path (lower case; '' matches nothing). The project columns are null when no project matches.
 */
export function tokenWithProject(statements: TokenWithProjectStatements, digest: string, projectId: number, fullPathLower: string, today: string): Statement {
  if (projectId === 0 && fullPathLower !== '') return { strings: statements.byPath, values: [fullPathLower, today, fullPathLower, today, today, today, today, fullPathLower, digest] };
  return { strings: statements.byId, values: [projectId, today, projectId, today, today, today, today, projectId, digest] };
}
