// `!7` references to merge requests in GitLab Flavored Markdown (issue 34): linked to the merge
// request for callers who may read the project's merge requests, plain text for everyone else and
// for iids that do not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { renderMarkdown } from '../../src/markdown/render-markdown.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'referenced', [create('r.txt', 'r\n')]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'referenced', title: 'Referenced change' });
});

afterAll(async () => {
  await kiln?.close();
});

const render = (token: string, text: string) => kiln.api('POST', '/markdown', { token, body: { text, gfm: true, project: w.project.path_with_namespace } });

describe('!iid in Markdown', () => {
  it('links a merge request the caller may read, with its title', async () => {
    const { status, body } = await render(w.reporter.token, `Fixed by !${mr.iid}, not !999 nor a!${mr.iid} or ![img](x.png).`);
    expect(status).toBe(201);
    expect(body.html).toContain(`<a href="${mr.web_url}" title="Referenced change" data-reference-type="merge_request" data-project="${w.project.id}" data-merge-request="${mr.id}" class="gfm gfm-merge_request">!${mr.iid}</a>`);
    expect(body.html).toContain('not !999 nor a!');
    expect(body.html.match(/gfm-merge_request/g)).toHaveLength(1);
  });

  it('leaves it plain for a caller who may not read merge requests (a guest of a private project)', async () => {
    const { body } = await render(w.guest.token, `See !${mr.iid}`);
    expect(body.html).toBe(`<p>See !${mr.iid}</p>\n`);
  });

  it('leaves it plain inside code and links', () => {
    const references = { issues: new Map(), users: new Map(), mergeRequests: new Map([[1, { url: 'http://kiln.test/g/p/-/merge_requests/1', title: 'T', projectId: 1, mergeRequestId: 9 }]]) };
    const html = renderMarkdown('`!1` [see !1](http://example.com) !1', { gfm: true, references });
    expect(html.match(/gfm-merge_request/g)).toHaveLength(1);
    expect(html).toContain('<code>!1</code>');
  });
});
