// Patterns chosen by users never backtrack on the event loop (issue 33): protected-branch wildcards
// and a webhook's wildcard filter are matched without a RegExp, its regex filter by a linear-time
// engine (RE2 syntax, refused when invalid), blob search filters as wildcards; /-/liveness answers
// within 100 ms while each hostile pattern is used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { whileLive } from '../helpers/liveness-probe.js';
import { commit, create } from './repository-api-driver.js';
import { branchMatches } from '../../src/webhooks/model.js';

let kiln: TestKiln;
let owner: TestUser;
let project: any;

/** `a*a*a*a*a*a*b`: each added star doubles a backtracking engine's work on a run of `a`s without a `b`. */
const STARS = `${'a*'.repeat(6)}b`;
const longBranch = (attempt: number) => `${'a'.repeat(105)}${attempt}`;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('pattern-owner');
  project = await kiln.createProject(owner, 'patterns');
  await commit(kiln, owner.token, project.id, { branch: 'main', actions: [create('README.md'), create('lib/deep/Model.RB')] });
  for (const attempt of [0, 1, 2]) await kiln.apiAs(owner, 'POST', `/projects/${project.id}/repository/branches`, { branch: longBranch(attempt), ref: 'main' });
});
afterAll(() => kiln.close());

describe('GET /projects/:id/repository/branches', () => {
  describe('as the owner, with a protected-branch wildcard that backtracks', () => {
    it('lists 105-character branches while /-/liveness keeps answering within 100 ms', async () => {
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/protected_branches`, { name: STARS });
      const { result } = await whileLive(kiln, () => kiln.api('GET', `/projects/${project.id}/repository/branches`, { token: owner.token, query: { per_page: 100 } }));
      expect(result.status).toBe(200);
      expect(result.body.find((branch: any) => branch.name === longBranch(0)).protected).toBe(false);
      await kiln.apiAs(owner, 'DELETE', `/projects/${project.id}/protected_branches/${encodeURIComponent(STARS)}`);
    });
  });
});

describe('POST /projects/:id/protected_branches', () => {
  describe('as the owner', () => {
    it('protects the branches a wildcard names, slashes included, and only those', async () => {
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/protected_branches`, { name: 'a*0' });
      const { body } = await kiln.api('GET', `/projects/${project.id}/repository/branches`, { token: owner.token, query: { per_page: 100 } });
      const isProtected = Object.fromEntries(body.map((branch: any) => [branch.name, branch.protected]));
      expect(isProtected).toMatchObject({ [longBranch(0)]: true, [longBranch(1)]: false, main: true });
      await kiln.apiAs(owner, 'DELETE', `/projects/${project.id}/protected_branches/${encodeURIComponent('a*0')}`);
    });

    it('refuses a name over 255 characters with 400 naming it', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/protected_branches`, { token: owner.token, body: { name: `${'*'.repeat(256)}` } });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain('name');
    });
  });
});

describe('POST /projects/:id/hooks', () => {
  describe('as the owner', () => {
    const hook = (body: Record<string, unknown>) => kiln.api('POST', `/projects/${project.id}/hooks`, { token: owner.token, body: { url: 'https://hooks.example.com/x', push_events: true, ...body } });

    it('accepts a regex filter in RE2 syntax, even one a backtracking engine would take for ever on', async () => {
      const { status, body } = await hook({ push_events_branch_filter: '(a+)+b', branch_filter_strategy: 'regex' });
      expect(status).toBe(201);
      expect(body.push_events_branch_filter).toBe('(a+)+b');
    });

    it('refuses a regex filter that is not RE2 (a backreference) with 400 naming the field, as GitLab does', async () => {
      const { status, body } = await hook({ push_events_branch_filter: '(a)\\1', branch_filter_strategy: 'regex' });
      expect(status).toBe(400);
      expect(body.message.push_events_branch_filter[0]).toMatch(/^not valid RE2 syntax: /);
    });

    it('refuses a wildcard filter over 4,000 characters with GitLab\'s message', async () => {
      const { status, body } = await hook({ push_events_branch_filter: 'a*'.repeat(2001), branch_filter_strategy: 'wildcard' });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { push_events_branch_filter: ['is longer than the allowed length of 4000 characters.'] } });
    });

    it('refuses switching an existing hook\'s filter to the regex strategy when the filter is not RE2', async () => {
      const { body: created } = await hook({ push_events_branch_filter: 'release/(?=x)' });
      expect(created.branch_filter_strategy).toBe('wildcard');
      const { status } = await kiln.api('PUT', `/projects/${project.id}/hooks/${created.id}`, { token: owner.token, body: { branch_filter_strategy: 'regex' } });
      expect(status).toBe(400);
    });
  });
});

describe('branchMatches (a push\'s branch against a hook\'s filter)', () => {
  it('matches hostile wildcard and regex filters against a long branch in linear time', () => {
    const started = performance.now();
    expect(branchMatches(STARS, 'wildcard', 'a'.repeat(5000))).toBe(false);
    expect(branchMatches('(a+)+b', 'regex', 'a'.repeat(5000))).toBe(false);
    expect(branchMatches('(a|aa)*c', 'regex', 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('keeps GitLab\'s meaning: a wildcard names the whole branch, a regex matches anywhere, an invalid regex nothing', () => {
    expect(branchMatches('release/*', 'wildcard', 'release/1.0')).toBe(true);
    expect(branchMatches('release/*', 'wildcard', 'old-release/1.0')).toBe(false);
    expect(branchMatches('*-stable', 'wildcard', 'team/2-stable')).toBe(true);
    expect(branchMatches('rel.*', 'regex', 'my-release')).toBe(true);
    expect(branchMatches('^rel', 'regex', 'my-release')).toBe(false);
    expect(branchMatches('(a)\\1', 'regex', 'aa')).toBe(false);
  });
});

describe('GET /projects/:id/search?scope=blobs', () => {
  describe('as the owner, with a filename filter that backtracks', () => {
    it('answers while /-/liveness keeps answering within 100 ms, and filters as wildcards', async () => {
      const { result } = await whileLive(kiln, (attempt) =>
        kiln.api('GET', `/projects/${project.id}/search`, { token: owner.token, query: { scope: 'blobs', search: `filename:${'*a'.repeat(1000 + attempt)}*b` } }));
      expect(result.status).toBe(200);
      expect(result.body).toEqual([]);
      const { body } = await kiln.api('GET', `/projects/${project.id}/search`, { token: owner.token, query: { scope: 'blobs', search: 'filename:*.rb' } });
      expect(body.map((blob: any) => blob.path)).toEqual(['lib/deep/Model.RB']);
    });
  });
});
