// Bad input on every merge request write route (issue 34): each declared field of each POST/PUT route
// of merge requests, their notes, threads, draft notes, reactions, approvals, merging, rebasing,
// suggestions, forks and commit statuses (read from /api/v4/openapi.json, so a new route or field is
// fuzzed without editing this file) gets the hostile values of the fuzz suites plus unknown SHAs and
// paths, one field at a time, against a real merge request with a diff, a thread, a draft note and a
// suggestion. Never a 5xx; a 400 names the field that was made hostile. The generic route fuzz
// (test/security/fuzz-routes.test.ts) sends its values without a merge request behind the path, so the
// handlers' own checks are reached only here. Positions outside the diff have their own cases in
// merge-request-discussions.test.ts. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { KINDS } from '../security/hostile-values.js';
import { branchWith, create, openMergeRequest, seedRepository, update } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
const ids: Record<string, string> = {};

/** Routes whose path names one of these are the merge request area's (issue 34). */
const AREA = /\/merge_requests|\/fork|\/statuses\/|^\/suggestions/;

const UNKNOWN_SHA = '0123456789abcdef0123456789abcdef01234567';
/** Values beyond the fuzz suites' kinds: things that look right but name nothing that exists. */
const EXTRA: Array<{ name: string; value: unknown }> = [
  { name: 'unknown sha', value: UNKNOWN_SHA },
  { name: 'unknown path', value: '../../no/such/file.txt' },
  { name: 'huge integer', value: 2 ** 63 },
  { name: 'empty string', value: '' },
];

/** A plausible value for a required field, so a request gets past "missing" to the field under test. */
function plausible(name: string, schema: { type?: string; enum?: unknown[] }): unknown {
  if (schema.enum?.length) return schema.enum[0];
  const known: Record<string, unknown> = {
    source_branch: 'fuzz-source', target_branch: 'main', title: 'Fuzz', body: 'A comment', note: 'A note', name: 'thumbsup',
    state: 'success', sha: ids.head, namespace_id: ids.namespace, id: ids.project,
  };
  if (name in known) return known[name];
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [1];
  if (schema.type === 'object') return {};
  return 'x';
}

let statuses = 0;
/** Base bodies for routes whose empty body would act (merge, edit) or be refused before any field is read. */
function baseBody(method: string, path: string): Record<string, unknown> {
  if (path.endsWith('/merge')) return { sha: UNKNOWN_SHA }; // the guard refuses it (409) after every other check
  if (method === 'PUT' && path.endsWith('/merge_requests/{merge_request_iid}')) return { title: 'Fuzz target' };
  // A finished job each time: a second pending status of one pending job is GitLab's 400 "Cannot
  // transition status", whichever field was made hostile (a hostile name may fall back to `default`).
  if (path.includes('/statuses/')) return { state: 'success', name: `job-${(statuses += 1)}` };
  return {};
}

/** The names a 400 may give a field by: GitLab's model attribute behind a parameter, or its alias. */
const ALSO_NAMED: Record<string, string[]> = { body: ['note'], context: ['name'] };
/**
 * GitLab's own 400s that name no parameter, for the field they are about (checked in GitLab's
 * services): a draft note replying to a thread that does not exist.
 */
const GITLAB_BASE_ERRORS: Record<string, string> = { in_reply_to_discussion_id: 'Thread to reply to cannot be found' };

function names(body: string, field: string): boolean {
  if (GITLAB_BASE_ERRORS[field] && body.includes(GITLAB_BASE_ERRORS[field])) return true;
  return [field, ...(ALSO_NAMED[field] ?? [])].some((name) => body.includes(name));
}

/** The body as form pairs (arrays as name[]=value), without `field`. */
function formOf(body: Record<string, unknown>, field: string): string[] {
  return Object.entries(body).filter(([name]) => name !== field).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((item) => `${name}[]=${encodeURIComponent(String(item))}`) : typeof value === 'object' ? [] : [`${name}=${encodeURIComponent(String(value))}`]);
}

function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (name === 'id' && path.startsWith('/suggestions')) return ids.suggestion;
    const value = ids[name];
    if (value === undefined) throw new Error(`no id for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

interface Operation { requestBody?: { content: { 'application/json': { schema: { properties: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] } } } } }

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('fuzz-owner', { admin: true });
  const project = await kiln.createProject(owner, 'fuzzed');
  const upstream = await kiln.createProject(owner, 'other');
  await seedRepository(kiln, owner, project.id);
  await branchWith(kiln, owner, project.id, 'fuzz-topic', [create('added.txt', 'one\ntwo\nthree\n'), update('README.md', 'hello\nchanged\n')]);
  const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'fuzz-topic', title: 'Fuzz target' });
  await kiln.worker.drain();
  const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
  const version = (await kiln.apiAs(owner, 'GET', `${base}/versions`))[0];
  const refs = (await kiln.apiAs(owner, 'GET', base)).diff_refs;
  const position = { position_type: 'text', base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha, new_path: 'added.txt', old_path: 'added.txt', new_line: 2 };
  const thread = await kiln.apiAs(owner, 'POST', `${base}/discussions`, { body: 'Better:\n```suggestion:-0+0\nTWO\n```', position });
  const note = thread.notes[0];
  const draft = await kiln.apiAs(owner, 'POST', `${base}/draft_notes`, { note: 'Pending' });
  const award = await kiln.apiAs(owner, 'POST', `${base}/award_emoji`, { name: 'tada' });
  const noteAward = await kiln.apiAs(owner, 'POST', `${base}/notes/${note.id}/award_emoji`, { name: 'tada' });
  Object.assign(ids, {
    project: String(project.id), id: String(project.id), namespace: String(project.namespace.id), merge_request_iid: String(mr.iid), head: refs.head_sha, sha: refs.head_sha,
    note_id: String(note.id), discussion_id: thread.id, draft_note_id: String(draft.id), award_id: String(award.id), version_id: String(version.id),
    suggestion: String(note.suggestions?.[0]?.id ?? 1), forked_from_id: String(upstream.id),
  });
  expect(noteAward.id).toBeGreaterThan(0);
  expect(note.suggestions).toHaveLength(1);
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

describe('every field of every merge request write route, made hostile', () => {
  it('never answers 5xx, and a 400 names the field', { timeout: 600_000 }, async () => {
    const doc = JSON.parse((await kiln.request('GET', '/api/v4/openapi.json')).body) as { paths: Record<string, Record<string, Operation>> };
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).filter(([method]) => method === 'post' || method === 'put').map(([method, op]) => ({ method: method.toUpperCase(), path, op })))
      .filter((route) => AREA.test(route.path))
      // The project's fork link and the merge come last: what they change stays changed.
      .sort((a, b) => Number(/fork|\/merge$/.test(a.path)) - Number(/fork|\/merge$/.test(b.path)));
    expect(routes.length).toBeGreaterThan(25);
    const failures: string[] = [];
    let fields = 0;
    let sent = 0;
    for (const route of routes) {
      const schema = route.op.requestBody?.content['application/json'].schema;
      const properties = schema?.properties ?? {};
      const required = Object.fromEntries((schema?.required ?? []).map((name) => [name, plausible(name, properties[name])]));
      const url = `/api/v4${concrete(route.path)}`;
      const send = (payload: string, type: string) => kiln.app.inject({ method: route.method, url, headers: { 'private-token': owner.token, 'content-type': type }, payload } as InjectOptions);
      const baseline = await send(JSON.stringify({ ...required, ...baseBody(route.method, route.path) }), 'application/json');
      for (const field of Object.keys(properties)) {
        fields += 1;
        const body = () => ({ ...required, ...baseBody(route.method, route.path) });
        const json = (value: unknown) => JSON.stringify({ ...body(), [field]: value });
        const form = (pair: string) => [...formOf(body(), field), pair].join('&');
        const values = [
          ...KINDS.filter((kind) => kind.json).map((kind) => ({ name: kind.name, payload: json(kind.json!(field)), type: 'application/json' })),
          ...KINDS.filter((kind) => kind.form !== undefined && kind.name !== 'nested brackets').map((kind) => ({ name: `${kind.name} (form)`, payload: form(`${field}=${kind.form}`), type: 'application/x-www-form-urlencoded' })),
          { name: 'nested brackets (form)', payload: form(`${field}${'[x]'.repeat(30)}=v`), type: 'application/x-www-form-urlencoded' },
          ...EXTRA.map((extra) => ({ name: extra.name, payload: json(extra.value), type: 'application/json' })),
        ];
        for (const value of values) {
          const response = await send(value.payload, value.type);
          sent += 1;
          const where = `${route.method} ${route.path} ${field} [${value.name}]`;
          if (response.statusCode >= 500) failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
          else if (response.statusCode === 400 && baseline.statusCode !== 400 && !names(response.body, field)) failures.push(`${where} → 400 not naming it: ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(fields).toBeGreaterThan(80);
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  });
});
