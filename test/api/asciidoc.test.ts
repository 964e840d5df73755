// AsciiDoc files rendered (issue 38): Asciidoctor in secure mode, its HTML cut to an allowlist as
// Markdown's is safe (no raw HTML passes, no javascript: links, no includes read), relative links
// resolved in the repository; the blob page, the project's README and wiki pages of format asciidoc.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Asciidoctor from '@asciidoctor/core';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { renderAsciidoc } from '../../src/markdown/render-asciidoc.js';
import { renderMarkup } from '../../src/markdown/markup.js';

let kiln: TestKiln;
let alice: TestUser;
let project: any;
let web: WebSession;

const HOSTILE = [
  '= Guide',
  '',
  'Read link:docs/setup.adoc[the setup], see image:diagram.png[Diagram] and https://example.com[elsewhere].',
  '',
  '++++',
  '<script>alert(1)</script><img src=x onerror=alert(2)>',
  '++++',
  '',
  'pass:[<b onclick="alert(3)">bold</b>] link:javascript:alert(4)[click]',
  '',
  'include::/etc/passwd[]',
  '',
  '[source,ruby]',
  '----',
  'puts "<hi>"',
  '----',
  '',
  '|===',
  '|a |b',
  '|===',
].join('\n');

beforeAll(async () => {
  // The render budget is markdown-bounded.test.ts's subject; on a loaded machine the first AsciiDoc
  // render may take longer than 1.5 s, which would show the text plain.
  kiln = await testKiln({ markdownRenderMs: 30_000 });
  alice = await kiln.createUser('alice');
  project = await kiln.createProject(alice, 'adoc', { visibility: 'private' });
  const commit = await kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: alice.token, body: {
    branch: 'main', commit_message: 'AsciiDoc', actions: [
      { action: 'create', file_path: 'README.adoc', content: HOSTILE },
      { action: 'create', file_path: 'docs/setup.adoc', content: '== Setup\n\nRun *it*.\n' },
    ],
  } });
  expect(commit.status, JSON.stringify(commit.body)).toBe(201);
  web = new WebSession(kiln);
  await web.signIn(alice.username, alice.password);
  // The AsciiDoc worker loads Asciidoctor once per process; on a loaded machine that can outlast a
  // render's wait for a worker (the text is then shown plain, `busy`). Wait for it here.
  for (let attempt = 0; attempt < 30 && !(await renderMarkup(kiln.deps, 'asciidoc', '= Ready')).includes('<h1>Ready</h1>'); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}, 120_000);
afterAll(() => kiln?.close());

describe('renderAsciidoc', () => {
  it('renders AsciiDoc and lets no raw HTML, script link or include through', () => {
    const out = renderAsciidoc(Asciidoctor(), HOSTILE, { baseUrl: 'http://kiln.test', relativeLinks: { blobBase: '/a/p/-/blob/main', rawBase: '/a/p/-/raw/main', directory: '' } });
    expect(out).toContain('<h1>Guide</h1>');
    expect(out).toContain('<a href="/a/p/-/blob/main/docs/setup.adoc">the setup</a>');
    expect(out).toContain('src="/a/p/-/raw/main/diagram.png"');
    expect(out).toContain('<a href="https://example.com" rel="nofollow noreferrer noopener">elsewhere</a>');
    expect(out).toContain('<table');
    expect(out).toContain('puts "&lt;hi&gt;"');
    expect(out).toContain('<b>bold</b>');
    for (const bad of ['<script', 'onerror', 'onclick', 'javascript:', 'root:', 'style=']) expect(out).not.toContain(bad);
  }, 60_000);
});

describe('AsciiDoc in pages', () => {
  it("renders the project's README.adoc on its overview, safely", async () => {
    const page = await web.get(`/${project.path_with_namespace}`);
    expect(page.statusCode).toBe(200);
    expect(page.body.slice(page.body.indexOf('readme'), page.body.indexOf('readme') + 1500)).toContain('<h1>Guide</h1>');
    expect(page.body).toContain(`href="/${project.path_with_namespace}/-/blob/main/docs/setup.adoc"`);
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('onerror=alert');
  }, 60_000);

  it('renders a .adoc blob, and shows its source on request', async () => {
    const page = await web.get(`/${project.path_with_namespace}/-/blob/main/docs/setup.adoc`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h2 id="_setup">Setup</h2>');
    expect(page.body).toContain('<strong>it</strong>');
    const plain = await web.get(`/${project.path_with_namespace}/-/blob/main/docs/setup.adoc?plain=1`);
    expect(plain.body).not.toContain('<strong>it</strong>');
    expect(plain.body).toContain('Display rendered');
  }, 60_000);

  it('renders a wiki page of format asciidoc (the API with render_html, and its page)', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'Handbook', format: 'asciidoc', content: '== Rules\n\nSee link:deploy[deploy].\n\n++++\n<script>x</script>\n++++\n' } });
    expect(created.status).toBe(201);
    const rendered = await kiln.api('GET', `/projects/${project.id}/wikis/Handbook?render_html=true`, { token: alice.token });
    expect(rendered.body.content).toContain('<h2 id="_rules">Rules</h2>');
    expect(rendered.body.content).toContain(`href="/${project.path_with_namespace}/-/wikis/deploy"`);
    expect(rendered.body.content).not.toContain('<script');
    const page = await web.get(`/${project.path_with_namespace}/-/wikis/Handbook`);
    expect(page.body).toContain('<h2 id="_rules">Rules</h2>');
  }, 60_000);
});
