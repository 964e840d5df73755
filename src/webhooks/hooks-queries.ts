// Raw statements of the webhook listeners: they run in the producer's transaction, which on the alert
// endpoint's path is a group-commit work with raw statements only.
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { Dialect } from '../platform/db/database.js';
import type { FiredFlag } from './model.js';

/** What the listener needs of a hook that wants an event: whether it may be sent to, and for pushes its branch filter. */
export interface ListeningHook {
  id: number;
  type: 'ProjectHook' | 'GroupHook' | 'SystemHook';
  recent_failures: number;
  backoff_count: number;
  disabled_until: number | null;
  push_events_branch_filter: string | null;
  branch_filter_strategy: string;
}

const LISTENING_COLUMNS = 'id, type, recent_failures, backoff_count, disabled_until, push_events_branch_filter, branch_filter_strategy';

/**
 * The hooks with `flag` on: the project's, its ancestor groups' (when `groups`) and the system hooks
 * (when `system`), as one row whose `hooks` is a JSON array of [LISTENING_COLUMNS] arrays, in no order.
 * Why this shape: with twenty hooks, twenty rows of fourteen columns cost an issue creation ~40 µs
 * in the listener (docs/performance.md); one text of arrays, the flag tested by the database, and
 * indexed reads instead of an OR that SQLite answered with a bloom filter and a sort, ~12 µs.
 */
export function listeningHooks(dialect: Dialect, projectId: number, flag: FiredFlag, groups: boolean, system: boolean): Statement {
  const key = `${dialect} ${flag} ${groups} ${system}`;
  let strings = listeningTemplates.get(key);
  if (strings === undefined) {
    strings = templateOf(listeningHooksText(dialect, flag, groups, system).split(PROJECT_ID));
    listeningTemplates.set(key, strings);
  }
  // Every placeholder of the text is the project's id.
  return q(strings, ...Array<number>(strings.length - 1).fill(projectId));
}

/** The listening hooks as one text: a JSON array of [LISTENING_COLUMNS] arrays. */
const hooksAggregate = (dialect: Dialect) => (dialect === 'postgres' ? `coalesce(json_agg(json_build_array(${LISTENING_COLUMNS})), '[]')::text` : `json_group_array(json_array(${LISTENING_COLUMNS}))`);

/** Where the project's id is bound in a `listeningHooksText`. */
const PROJECT_ID = '\u0000';

function listeningHooksText(dialect: Dialect, flag: FiredFlag, groups: boolean, system: boolean): string {
  // Without statistics SQLite chose the index on `type`, a walk over every project's (or group's) hooks.
  const from = (index: string) => `select ${LISTENING_COLUMNS} from web_hooks${dialect === 'sqlite' ? ` indexed by ${index}` : ''}`;
  const sources = [`${from('web_hooks_project')} where project_id = ${PROJECT_ID} and type = 'ProjectHook' and ${flag} = 1`];
  if (groups) sources.push(`${from('web_hooks_group')} where group_id in (select id from ancestors) and type = 'GroupHook' and ${flag} = 1`);
  if (system) sources.push(`select ${LISTENING_COLUMNS} from web_hooks where type = 'SystemHook' and ${flag} = 1`);
  const aggregate = hooksAggregate(dialect);
  const ancestors = `with recursive ancestors(id) as (
      select namespaces.id from projects join namespaces on namespaces.id = projects.namespace_id
        where projects.id = ${PROJECT_ID} and namespaces.kind = 'group'
      union all
      select namespaces.parent_id from namespaces join ancestors on namespaces.id = ancestors.id where namespaces.parent_id is not null
    )\n`;
  return `${groups ? ancestors : ''}select ${aggregate} as hooks from (${sources.join('\nunion all\n')}) as listening`;
}

const listeningTemplates = new Map<string, TemplateStringsArray>();

/** The group hooks with `flag` on of the group and its ancestors, as a `listeningHooks` row (an event of the group itself: its wiki). */
export function listeningGroupHooks(dialect: Dialect, groupId: number, flag: FiredFlag): Statement {
  const key = `${dialect} ${flag} group`;
  let strings = listeningTemplates.get(key);
  if (strings === undefined) {
    const index = dialect === 'sqlite' ? ' indexed by web_hooks_group' : '';
    const aggregate = hooksAggregate(dialect);
    strings = templateOf([`with recursive ancestors(id) as (
        select id from namespaces where id = `, ` and kind = 'group'
        union all
        select namespaces.parent_id from namespaces join ancestors on namespaces.id = ancestors.id where namespaces.parent_id is not null
      )
      select ${aggregate} as hooks from (select ${LISTENING_COLUMNS} from web_hooks${index}
        where group_id in (select id from ancestors) and type = 'GroupHook' and ${flag} = 1) as listening`]);
    listeningTemplates.set(key, strings);
  }
  return q(strings, groupId);
}

/** The hooks of a `listeningHooks` row. */
export function listeningHooksOf(row: { hooks: string } | undefined): ListeningHook[] {
  const hooks = JSON.parse(row?.hooks ?? '[]') as Array<[number, ListeningHook['type'], number, number, number | null, string | null, string]>;
  return hooks.map(([id, type, recent_failures, backoff_count, disabled_until, push_events_branch_filter, branch_filter_strategy]) => ({
    id, type, recent_failures, backoff_count, disabled_until, push_events_branch_filter, branch_filter_strategy,
  }));
}

export const issueConfidential = (issueId: number) => q`select confidential from issues where id = ${issueId}`;

export interface ListeningIntegration {
  id: number;
  alert_events: number;
  issues_events: number;
  confidential_issues_events: number;
  note_events: number;
  confidential_note_events: number;
  push_events: number;
  tag_push_events: number;
  deployment_events: number;
  /** The Slack settings as stored (JSON): the channels an event's message goes to. */
  properties: string;
}

export const activeChatIntegrations = (projectId: number) => q`
  select id, alert_events, issues_events, confidential_issues_events, note_events, confidential_note_events, push_events, tag_push_events, deployment_events, properties
  from chat_integrations where project_id = ${projectId} and active = 1`;

/** Every system hook with its failure state (system events go to all of them). */
export const systemHooks = () => q`select id, recent_failures, backoff_count, disabled_until from web_hooks where type = 'SystemHook' order by id`;

/** A new alert as its chat message shows it, read in the transaction that created it (a group-commit work). */
export const alertForChat = (alertId: number) => q`
  select a.title, a.iid, a.severity, a.status, a.started_at, a.service, p.full_path, coalesce(c.events, 1) as events
  from alert_management_alerts a
  join projects p on p.id = a.project_id
  left join alert_management_event_counts c on c.alert_id = a.id
  where a.id = ${alertId}`;
