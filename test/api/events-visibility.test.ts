// Per-event visibility (GitLab's REST API documentation) and push events, and counting that stops at 10,000 rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { recordEvent } from '../../src/platform/events/record-event.js';
import type { PushData } from '../../src/platform/events/vocabulary.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let outsider: TestUser;
let privateProject: any;
let publicProject: any;

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

function push(action: PushData['action'], from: string | null, to: string | null): PushData {
  return { commit_count: action === 'removed' ? 0 : 2, action, ref_type: 'branch', commit_from: from, commit_to: to, ref: 'main', commit_title: action === 'removed' ? null : 'Fix the build', ref_count: null };
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  reporter = await kiln.createUser('reporter');
  outsider = await kiln.createUser('outsider');
  privateProject = await kiln.createProject(owner, 'private-code');
  publicProject = await kiln.createProject(owner, 'public-code', { visibility: 'public' });
  await kiln.addMember(owner, 'projects', privateProject.id, guest, 10);
  await kiln.addMember(owner, 'projects', privateProject.id, reporter, 20);
  await kiln.addMember(owner, 'projects', publicProject.id, reporter, 20);
  for (const project of [privateProject, publicProject]) {
    await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: owner.id, action: 'pushed', pushData: push('created', null, SHA_A) });
    await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: owner.id, action: 'pushed', pushData: push('pushed', SHA_A, SHA_B) });
    await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: project.id, authorId: owner.id, action: 'pushed', pushData: push('removed', SHA_B, null) });
  }
  const secret = await kiln.api('POST', `/projects/${publicProject.id}/issues`, { token: owner.token, body: { title: 'Security hole', confidential: true } });
  await kiln.api('POST', `/projects/${publicProject.id}/issues/${secret.body.iid}/notes`, { token: owner.token, body: { body: 'patch pending' } });
  await kiln.api('POST', `/projects/${publicProject.id}/issues`, { token: outsider.token, body: { title: 'Typo' } });
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/events push events', () => {
  it('as the owner, shows push_data and the push wording for new, updated and deleted refs', async () => {
    const { body } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: owner.token, query: { action: 'pushed', sort: 'asc' } });
    expect(body.map((e: any) => e.action_name)).toEqual(['pushed new', 'pushed to', 'deleted']);
    expect(body[0]).toMatchObject({ target_type: null, target_id: null, target_iid: null, target_title: null });
    expect(body[0].push_data).toEqual({ commit_count: 2, action: 'created', ref_type: 'branch', commit_from: null, commit_to: SHA_A, ref: 'main', commit_title: 'Fix the build', ref_count: null });
    expect(body[2].push_data).toMatchObject({ action: 'removed', commit_from: SHA_B, commit_to: null, commit_title: null });
  });

  it('as a guest of a private project, hides pushes (guests cannot download code) but shows the rest', async () => {
    const { status, body, headers } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: guest.token });
    expect(status).toBe(200);
    expect(body.some((e: any) => e.action_name.startsWith('pushed') || e.action_name === 'deleted')).toBe(false);
    expect(body.map((e: any) => e.action_name)).toEqual(['joined', 'joined', 'created']);
    expect(headers['x-total']).toBe('3');
  });

  it('as a reporter of a private project, shows pushes', async () => {
    const { body } = await kiln.api('GET', `/projects/${privateProject.id}/events`, { token: reporter.token, query: { action: 'pushed' } });
    expect(body).toHaveLength(3);
  });

  it('as a non-member of a public project, shows pushes', async () => {
    const { body } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { token: outsider.token, query: { action: 'pushed' } });
    expect(body).toHaveLength(3);
  });
});

describe('GET /api/v4/projects/:id/events confidential issues', () => {
  it('as a non-member, hides the confidential issue and comments on it, and pages are never short', async () => {
    const { body, headers } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { token: outsider.token, query: { per_page: 2 } });
    expect(body.map((e: any) => e.target_title ?? e.action_name)).toEqual(['Typo', 'deleted']);
    expect(headers['x-total']).toBe('6'); // created, joined, 3 pushes, Typo
  });

  it('as the author of a confidential issue, shows it', async () => {
    const { body } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { token: owner.token, query: { target_type: 'issue' } });
    expect(body.map((e: any) => e.target_title)).toEqual(['Typo', 'Security hole']);
  });

  it('as a reporter, shows the confidential issue and its comment', async () => {
    const { body } = await kiln.api('GET', `/projects/${publicProject.id}/events`, { token: reporter.token });
    expect(body.map((e: any) => e.action_name).slice(0, 3)).toEqual(['opened', 'commented on', 'opened']);
    expect(body[1].note.body).toBe('patch pending');
  });

  it('as a non-member, hides them from the author\'s user events too', async () => {
    const { body } = await kiln.api('GET', `/users/${owner.id}/events`, { token: outsider.token, query: { target_type: 'issue' } });
    expect(body).toEqual([]);
  });
});

describe('GET /api/v4/events?scope=all across several projects', () => {
  it('as a guest of a private and a public project, hides private pushes and confidential issues only', async () => {
    await kiln.addMember(owner, 'projects', publicProject.id, guest, 10);
    const { body, headers } = await kiln.api('GET', '/events', { token: guest.token, query: { scope: 'all', per_page: 100 } });
    const pushes = body.filter((e: any) => e.push_data).map((e: any) => e.project_id);
    expect(pushes).toEqual([publicProject.id, publicProject.id, publicProject.id]);
    expect(body.some((e: any) => e.target_title === 'Security hole' || e.note)).toBe(false);
    expect(body.map((e: any) => e.target_title).filter(Boolean)).toEqual(['Typo']);
    expect(headers['x-total']).toBe(String(body.length));
  });

  it('pages the merged listing consistently in both directions', async () => {
    for (const sort of ['asc', 'desc']) {
      const all = (await kiln.api('GET', '/events', { token: reporter.token, query: { scope: 'all', sort, per_page: 100 } })).body.map((e: any) => e.id);
      const paged: number[] = [];
      for (let page = 1; page <= 5; page += 1) {
        const { body } = await kiln.api('GET', '/events', { token: reporter.token, query: { scope: 'all', sort, per_page: 3, page } });
        paged.push(...body.map((e: any) => e.id));
      }
      expect(all.length).toBeGreaterThan(9);
      expect(paged).toEqual(all.slice(0, 15));
      expect(all).toEqual([...all].sort((a: number, b: number) => (sort === 'asc' ? a - b : b - a)));
    }
  });
});

describe('GET /api/v4/events?scope=all through group membership', () => {
  it('as a member of a parent group (any level, Owner too), includes private projects of subgroups', async () => {
    const lead = await kiln.createUser('lead');
    const dev = await kiln.createUser('dev');
    const parent = await kiln.createGroup(owner, 'parent-group');
    const child = await kiln.createGroup(owner, 'child-group', { parent_id: parent.id });
    const deep = await kiln.createProject(owner, 'deep', { namespace_id: child.id });
    await recordEvent(kiln.deps.db, kiln.deps.clock, { projectId: deep.id, authorId: owner.id, action: 'pushed', pushData: push('created', null, SHA_A) });
    await kiln.addMember(owner, 'groups', parent.id, lead, 50);
    await kiln.addMember(owner, 'groups', child.id, dev, 30);
    for (const user of [lead, dev]) {
      const { status, body } = await kiln.api('GET', '/events', { token: user.token, query: { scope: 'all' } });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.filter((e: any) => e.project_id === deep.id).map((e: any) => e.action_name)).toEqual(['pushed new', 'created']);
    }
    const { body } = await kiln.api('GET', `/users/${owner.id}/events`, { token: lead.token, query: { action: 'pushed' } });
    expect(body.some((e: any) => e.project_id === deep.id)).toBe(true);
  });
});

describe('GET /api/v4/events counting', () => {
  async function seed(authorId: number, projectId: number, count: number): Promise<void> {
    const now = kiln.clock.now();
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, () => ({ project_id: projectId, author_id: authorId, action: 'updated', target_type: 'Issue', target_id: 1, target_iid: 1, target_title: 'bulk', push_data: null, created_at: now }));
      await kiln.deps.db.insertInto('events').values(rows).execute();
    }
  }

  it('counts exactly 10,000 events', async () => {
    const user = await kiln.createUser('ten-thousand');
    const project = await kiln.createProject(user, 'bulk-a'); // 1 event
    await seed(user.id, project.id, 9_999);
    const { headers } = await kiln.api('GET', '/events', { token: user.token });
    expect(headers['x-total']).toBe('10000');
    expect(headers['x-total-pages']).toBe('500');
    expect(headers.link).toContain('rel="last"');
  });

  it('stops counting above 10,000: no X-Total, no X-Total-Pages, no rel="last"', async () => {
    const user = await kiln.createUser('many-events');
    const project = await kiln.createProject(user, 'bulk-b');
    await seed(user.id, project.id, 10_000);
    const { status, body, headers } = await kiln.api('GET', '/events', { token: user.token, query: { per_page: 100 } });
    expect(status).toBe(200);
    expect(body).toHaveLength(100);
    expect(headers['x-total']).toBeUndefined();
    expect(headers['x-total-pages']).toBeUndefined();
    expect(headers.link).not.toContain('rel="last"');
    expect(headers['x-next-page']).toBe('2');
  });
});
