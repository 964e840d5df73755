// The hostile values of the fuzz suites (issue 33) and the requests that carry them: NUL bytes, huge
// strings, wrong types, arrays and hashes where text is expected, deeply nested names, invalid UTF-8
// escapes, impossible dates, unicode; in the query, the body (JSON or form) and the path.
import type { InjectOptions } from 'fastify';

/** Common parameter names, so that hostile values reach the routes' own checks and not only "missing". */
export const NAMES = ['title', 'name', 'path', 'description', 'body', 'note', 'due_date', 'start_date', 'ref', 'ref_name', 'branch', 'sha', 'file_path', 'content', 'labels', 'assignee_ids', 'state', 'state_event', 'search', 'order_by', 'sort', 'per_page', 'page', 'visibility', 'url', 'username', 'email', 'key', 'value', 'scopes', 'expires_at', 'access_level', 'user_id', 'namespace_id', 'tag_name', 'message', 'commit_message', 'actions', 'confidential', 'weight'];

export type Kind = { name: string; json?: (key: string) => unknown; form?: string; path?: string };

const huge = 'x'.repeat(200_000);
export const KINDS: Kind[] = [
  { name: 'NUL', json: () => 'a\u0000b', form: 'a%00b', path: 'a%00b' },
  { name: 'huge', json: () => huge, path: 'y'.repeat(900) },
  { name: 'number', json: () => 1e308 },
  { name: 'negative', json: () => -1, path: '-1' },
  { name: 'hash', json: () => ({ nested: { deeper: ['x'] } }) },
  { name: 'array of hashes', json: () => [{ a: 1 }, { b: [null] }] },
  { name: 'null and booleans', json: (key) => (key.length % 2 === 0 ? null : true) },
  { name: 'nested brackets', form: 'v' },
  { name: 'invalid UTF-8 escapes', form: '%E0%A4%A%C3%28%FF', path: '%C3%28' },
  { name: 'impossible date', json: () => '2026-13-45', form: '2026-02-30' },
  { name: 'unicode', json: () => '\u202e\ud83d\ude00\u0301\ufeff', path: encodeURIComponent('\u202e\ud83d\ude00') },
];

/** What a page's form can carry (pages read forms only): the form kinds, and the rest spelled as form values. */
export const FORM_KINDS: Kind[] = [
  ...KINDS.filter((kind) => kind.form !== undefined),
  { name: 'huge', form: 'x'.repeat(20_000) },
  { name: 'unicode', form: encodeURIComponent('\u202e\ud83d\ude00\u0301\ufeff') },
  { name: 'negative', form: '-1' },
  { name: 'array', form: 'a&title[]=b&name[]=c&id[]=1' },
  { name: 'hash', form: 'a&title[k]=b&name[k][j]=c&id[k]=1' },
];

/** The ids a route's `:params` are filled with. */
export interface FuzzIds {
  group: string;
  project: string;
  user: string;
  issue: string;
  milestone: string;
}

/** A Fastify URL with its params filled in; the first one hostile when asked and the kind has a path form. */
export function concretePath(pattern: string, ids: FuzzIds, kind: Kind, hostilePath: boolean): string {
  let first = true;
  return pattern.replace(/:(\w+)/g, (_all, param: string) => {
    const hostile = hostilePath && first && kind.path !== undefined;
    first = false;
    if (hostile) return kind.path!;
    if (param === 'id') return pattern.startsWith('/api/v4/groups') ? ids.group : pattern.startsWith('/api/v4/users') ? ids.user : ids.project;
    if (param.endsWith('iid')) return ids.issue;
    if (param === 'milestone_id') return ids.milestone;
    if (param === 'user_id') return ids.user;
    if (/branch|ref|sha|tag/.test(param)) return 'main';
    return '1';
  });
}

/** `name=value` pairs of a form or query string for the kind. */
export function formPairs(kind: Kind): string[] {
  return kind.name === 'nested brackets' ? NAMES.map((name) => `${name}${'[x]'.repeat(30)}=${kind.form}`) : NAMES.map((name) => `${name}=${kind.form}`);
}

/** The request carrying the kind: in the query for GET, in a form or JSON body otherwise. */
export function hostileRequest(method: string, url: string, kind: Kind, headers: Record<string, string>): InjectOptions {
  if (kind.form !== undefined) {
    const pairs = formPairs(kind);
    if (method === 'GET') return { method: 'GET', url: `${url}?${pairs.join('&')}`, headers } as InjectOptions;
    return { method, url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: pairs.join('&') } as InjectOptions;
  }
  const values = Object.fromEntries(NAMES.map((name) => [name, kind.json!(name)]));
  if (method === 'GET') return { method: 'GET', url: `${url}?${NAMES.map((name) => `${name}=${encodeURIComponent(String(values[name]))}`).join('&')}`, headers } as InjectOptions;
  return { method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(values) } as InjectOptions;
}
