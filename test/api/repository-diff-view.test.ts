// The diff view on the commit and compare pages (issue 35): highlighted, inline and side by side,
// files collapsible with their body fetched when opened, hidden context fetched by the expanders,
// `.diff` and `.patch` as text, and htmx served from Kiln itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { commit, create, update } from './repository-api-driver.js';

let kiln: TestKiln;
let owner: TestUser;
let stranger: TestUser;
let project: any;
let base: any;
let change: any;
let web: WebSession;
const LONG = Array.from({ length: 60 }, (_, index) => `line ${index + 1}`);

function textOf(body: string): string {
  return body.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop');
  base = await commit(kiln, owner.token, project.id, { branch: 'main', actions: [create('long.txt', `${LONG.join('\n')}\n`), create('app.py', 'def f():\n    return "<b>"\n'), create('big.txt', `${'x'.repeat(100)}\n`.repeat(300))] });
  const changed = [...LONG];
  changed[29] = 'line 30 changed';
  change = await commit(kiln, owner.token, project.id, {
    branch: 'main',
    commit_message: 'Change <em>things</em>',
    actions: [update('long.txt', `${changed.join('\n')}\n`), update('app.py', 'def f():\n    return "<i>"\n'), update('big.txt', `${'y'.repeat(100)}\n`.repeat(300))],
  });
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
});
afterAll(() => kiln.close());

describe('GET /:project/-/commit/:sha (the diff view)', () => {
  it('renders each file with its header, highlighted and escaped, with line anchors', async () => {
    const response = await web.get(`/owner/shop/-/commit/${change.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('data-path="app.py"');
    expect(response.body).toContain('<span class="hljs-keyword">return</span>');
    expect(textOf(response.body)).toContain('+    return "<i>"');
    expect(response.body).not.toContain('<i>"');
    expect(response.body).toMatch(/<tr class="add" id="[0-9a-f]{40}_3_2"/);
    expect(textOf(response.body)).toContain('Change <em>things</em>');
  });

  it('collapses a file over a tenth of the patch limit, to be fetched when opened', async () => {
    const response = await web.get(`/owner/shop/-/commit/${change.id}`);
    const section = response.body.slice(response.body.indexOf('data-path="big.txt"'));
    expect(section).toMatch(/<details hx-get="\/owner\/shop\/-\/commit\/[0-9a-f]{40}\/diff_file\?path=big.txt&amp;view=inline" hx-trigger="toggle once"/);
    const body = await web.get(`/owner/shop/-/commit/${change.id}/diff_file?path=big.txt`);
    expect(body.statusCode).toBe(200);
    expect(body.body).not.toContain('<html');
    expect(textOf(body.body)).toContain('+yyyy');
  });

  it('offers expanders for the hidden lines and answers them as rows', async () => {
    const response = await web.get(`/owner/shop/-/commit/${change.id}`);
    // Above the hunk (lines 27–33): 26 lines, shown at once; below it, the rest of the file in steps of 20.
    expect(response.body).toMatch(/>Show 26 hidden lines</);
    const match = /hx-get="(\/owner\/shop\/-\/diff_lines\/[0-9a-f]{40}\/long.txt\?since=34&amp;to=53[^"]*)"/.exec(response.body);
    expect(match).not.toBeNull();
    const rows = await web.get(match![1].replace(/&amp;/g, '&'));
    expect(rows.statusCode).toBe(200);
    expect(rows.body.startsWith('<tr')).toBe(true);
    expect(textOf(rows.body)).toContain('line 53');
    expect(textOf(rows.body)).not.toContain('line 54');
    // Lines 54–60 stay hidden behind a new expander.
    expect(rows.body).toContain('since=54&amp;to=end');
  });

  it('side by side puts old and new in four columns', async () => {
    const response = await web.get(`/owner/shop/-/commit/${change.id}?view=parallel`);
    expect(response.body).toContain('class="code diff parallel"');
    expect(response.body).toContain('<td colspan="4">@@');
  });

  it('answers the plain diff and the e-mail patch as text that no browser renders', async () => {
    const diff = await web.get(`/owner/shop/-/commit/${change.id}.diff`);
    expect(diff.statusCode).toBe(200);
    expect(diff.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(diff.headers['content-security-policy']).toContain('sandbox');
    expect(diff.body).toContain('diff --git a/app.py b/app.py');
    const patch = await web.get(`/owner/shop/-/commit/${change.id}.patch`);
    expect(patch.body).toContain('Subject: [PATCH] Change <em>things</em>');
  });

  it('as an outsider answers 404 for the pieces too', async () => {
    const other = new WebSession(kiln);
    await other.signIn(stranger.username, stranger.password);
    expect((await other.get(`/owner/shop/-/commit/${change.id}.diff`)).statusCode).toBe(404);
    expect((await other.get(`/owner/shop/-/diff_lines/${change.id}/long.txt?since=1&to=5&offset=0&gap_from=1&gap_to=26`)).statusCode).toBe(404);
  });

  it('answers 404 for bad expander parameters', async () => {
    expect((await web.get(`/owner/shop/-/diff_lines/${change.id}/long.txt?since=x&to=5&offset=0&gap_from=1&gap_to=26`)).statusCode).toBe(404);
    expect((await web.get(`/owner/shop/-/diff_lines/${change.id}/long.txt?since=1&to=5&offset=0&gap_from=1&gap_to=26&prefix=%3Cb%3E`)).statusCode).toBe(404);
  });
});

describe('GET /:project/-/compare', () => {
  it('redirects the form to from...to', async () => {
    const response = await web.get('/owner/shop/-/compare?from=main&to=feature%2Fx');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/owner/shop/-/compare/main...feature/x');
  });

  it('compares with a swap link', async () => {
    const response = await web.get(`/owner/shop/-/compare/${base.id}...main`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`href="/owner/shop/-/compare/main...${base.id}"`);
    expect(response.body).toContain('data-path="long.txt"');
  });
});

describe('GET /-/assets/htmx.min.js', () => {
  it('serves htmx from Kiln, and every page loads it with a configuration that needs no eval', async () => {
    const script = await kiln.request('GET', '/-/assets/htmx.min.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('htmx');
    const page = await web.get('/owner/shop');
    expect(page.body).toContain('<script src="/-/assets/htmx.min.js" defer></script>');
    expect(page.body).toContain('&quot;allowEval&quot;:false');
    expect(page.body).toMatch(/<body hx-headers="\{&quot;X-CSRF-Token&quot;:&quot;[^&]+&quot;\}">/);
  });
});
