// The activity pages' Merge events and Wiki tabs (issue 38): merged merge requests linked as `!iid title`,
// wiki page events linked to the page as it is now (a deleted page named, not linked), milestones
// linked as `%title`; wiki events only for who may read the wiki (the finder decides).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let docsPath: string;

const ok = (response: { status: number; body: unknown }, status = 201) => expect(response.status, JSON.stringify(response.body)).toBe(status);

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln, { visibility: 'public' });
  const id = w.project.id;
  const token = w.owner.token;
  await seedRepository(kiln, w.owner, id);
  await branchWith(kiln, w.owner, id, 'faster', [create('build.txt', 'fast\n')]);
  const mr = await openMergeRequest(kiln, w.owner, id, { source_branch: 'faster', title: 'Faster builds' });
  await kiln.worker.drain();
  ok(await kiln.api('PUT', `/projects/${id}/merge_requests/${mr.iid}/merge`, { token, body: {} }), 200);
  ok(await kiln.api('POST', `/projects/${id}/milestones`, { token, body: { title: 'Autumn release' } }));
  ok(await kiln.api('POST', `/projects/${id}/issues`, { token, body: { title: 'Flaky login' } }));
  ok(await kiln.api('POST', `/projects/${id}/wikis`, { token, body: { title: 'Deploy guide', content: 'Steps' } }));
  ok(await kiln.api('POST', `/projects/${id}/wikis`, { token, body: { title: 'ops/Old notes', content: 'Gone soon' } }));
  ok(await kiln.api('DELETE', `/projects/${id}/wikis/${encodeURIComponent('ops/Old-notes')}`, { token }), 204);
  // A public project whose wiki only members read.
  const docs = await kiln.createProject(w.owner, 'docs', { namespace_id: w.group.id, visibility: 'public' });
  ok(await kiln.api('PUT', `/projects/${docs.id}`, { token, body: { wiki_access_level: 'private' } }), 200);
  docsPath = docs.path_with_namespace;
  ok(await kiln.api('POST', `/projects/${docs.id}/wikis`, { token, body: { title: 'Internal runbook', content: 'Secret' } }));
  await kiln.worker.drain();
});
afterAll(() => kiln?.close());

async function as(user: RepositoryWorld['owner'] | null) {
  const web = new WebSession(kiln);
  if (user) await web.signIn(user.username, user.password);
  return web;
}

const projectPath = () => w.project.path_with_namespace as string;

describe('the activity tabs', () => {
  it('list GitLab’s filters in its order, Merge events and Wiki among them, on the project, group and dashboard pages', async () => {
    const web = await as(w.owner);
    for (const url of [`/${projectPath()}/activity`, `/groups/${w.group.full_path}/-/activity`, '/dashboard/activity']) {
      const body = (await web.get(url)).body;
      const tabs = [...body.matchAll(/data-filter="([a-z]+)"/g)].map((match) => match[1]);
      expect(tabs, url).toEqual(['all', 'push', 'merged', 'issue', 'comments', 'wiki', 'team']);
      expect(body).toContain('>Merge events</a>');
      expect(body).toContain('>Wiki</a>');
    }
  });

  it('Merge events shows the merged merge request linked as !iid title, and nothing else', async () => {
    const response = await (await as(null)).get(`/${projectPath()}/activity?event_filter=merged`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('data-filter="merged" aria-current="page"');
    expect(response.body).toMatch(new RegExp(`accepted <a href="/${projectPath()}/-/merge_requests/1">!1 Faster builds</a>`));
    expect(response.body).not.toContain('Flaky login');
    expect(response.body).not.toContain('Deploy guide');
    expect(response.body).not.toMatch(/opened <a href="[^"]+merge_requests/);
  });

  it('Wiki shows page events linked to the page, a deleted page named without a link', async () => {
    const body = (await (await as(null)).get(`/${projectPath()}/activity?event_filter=wiki`)).body;
    expect(body).toContain(`created wiki page <a href="/${projectPath()}/-/wikis/Deploy-guide">Deploy guide</a>`);
    expect(body).toContain('destroyed wiki page <span class="target">Old notes</span>');
    expect(body).not.toContain(`/-/wikis/ops/Old-notes"`);
    expect(body).not.toContain('Faster builds');
    expect(body).not.toContain('Flaky login');
  });

  it('All links merge requests, issues and milestones of the project', async () => {
    const body = (await (await as(null)).get(`/${projectPath()}/activity`)).body;
    expect(body).toContain(`opened <a href="/${projectPath()}/-/merge_requests/1">!1 Faster builds</a>`);
    expect(body).toContain(`opened <a href="/${projectPath()}/-/issues/1">#1 Flaky login</a>`);
    expect(body).toContain(`opened <a href="/${projectPath()}/-/milestones/1">%Autumn release</a>`);
    // The pages it links answer.
    for (const path of ['merge_requests/1', 'issues/1', 'milestones/1', 'wikis/Deploy-guide']) {
      expect((await (await as(null)).get(`/${projectPath()}/-/${path}`)).statusCode, path).toBe(200);
    }
  });

  it('Wiki on the group and dashboard pages names each page’s project and links the page', async () => {
    const web = await as(w.owner);
    for (const url of [`/groups/${w.group.full_path}/-/activity?event_filter=wiki`, '/dashboard/activity?event_filter=wiki']) {
      const body = (await web.get(url)).body;
      expect(body, url).toContain(`<a href="/${docsPath}/-/wikis/Internal-runbook">Internal runbook</a> at <a href="/${docsPath}">`);
      expect(body, url).toContain(`<a href="/${projectPath()}/-/wikis/Deploy-guide">Deploy guide</a>`);
    }
  });

  it('leaves a members-only wiki’s events to those who read it', async () => {
    const outsider = (await (await as(w.stranger)).get(`/${docsPath}/activity?event_filter=wiki`));
    expect(outsider.statusCode).toBe(200);
    expect(outsider.body).not.toContain('Internal runbook');
    expect((await (await as(w.stranger)).get(`/groups/${w.group.full_path}/-/activity?event_filter=wiki`)).body).not.toContain('Internal runbook');
    expect((await (await as(w.owner)).get(`/${docsPath}/activity?event_filter=wiki`)).body).toContain('Internal runbook');
  });
});
