// Markdown that costs more than its size (issue 33): rendered on worker threads within a time budget,
// shown as escaped text with a notice when over it, kept by digest so a planted text is not rendered
// again on every view, and never holding the event loop: /-/liveness answers within 100 ms while the
// hostile texts are rendered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { LIVENESS_ATTEMPTS, whileLive } from '../helpers/liveness-probe.js';
import { renderPoolStats } from '../../src/markdown/bounded-render.js';

let kiln: TestKiln;
let owner: TestUser;
let project: any;

/** The probe's text: 100 nested quotes, then lazy continuation lines (quadratic in markdown-it). */
const nestedQuotes = (lines: number) => `${'> '.repeat(100)}${'a\n'.repeat(lines)}`;

/**
 * The notice of a render the pool cut off: over its time budget, or (on a fast, quiet machine) over
 * the worker's heap limit before the time ran out. Either way the text is bounded and shown escaped.
 */
const CUT_OFF = /<p class="markdown-notice" role="note">This text (took too long to render|could not be rendered) as Markdown, so it is shown as plain text\.<\/p>/;

/**
 * POST /api/v4/markdown with the body already serialised, and its answer parsed after the probe: the
 * test is the client in the same process, and its own JSON work must not count against the server.
 */
async function postMarkdown(payload: string) {
  const response = await kiln.app.inject({ method: 'POST', url: '/api/v4/markdown', headers: { 'content-type': 'application/json', 'private-token': owner.token }, payload });
  return { status: response.statusCode, text: response.body };
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('mdb-owner');
  project = await kiln.createProject(owner, 'planted', { visibility: 'public' });
});
afterAll(() => kiln.close());

describe('POST /api/v4/markdown', () => {
  // Signed in: large bodies from anonymous callers may be refused before they are read.
  describe('as a signed-in user', () => {
    it('answers the 80 KB reproduction while /-/liveness keeps answering within 100 ms', async () => {
      const payloads = LIVENESS_ATTEMPTS.map((attempt) => JSON.stringify({ text: `${attempt}\n${nestedQuotes(40_000)}`, gfm: true }));
      const { result } = await whileLive(kiln, (attempt) => postMarkdown(payloads[attempt]));
      expect(result.status).toBe(201);
      expect(JSON.parse(result.text).html).toMatch(/^(<p>\d<\/p>\n<blockquote>|<p class="markdown-notice")/);
    });

    it('shows a text over its time budget as escaped text with a notice, and replaces the stuck worker', async () => {
      const before = renderPoolStats()?.replaced ?? 0;
      const payloads = LIVENESS_ATTEMPTS.map((attempt) => JSON.stringify({ text: `<script>${attempt}</script>\n${nestedQuotes(300_000)}`, gfm: true }));
      let took = 0;
      const { result } = await whileLive(kiln, async (attempt) => {
        const started = performance.now();
        const answer = await postMarkdown(payloads[attempt]);
        took = performance.now() - started;
        return answer;
      });
      // The budget (1.5 s) and the transfer, not the minute the text would take.
      expect(took).toBeLessThan(10_000);
      expect(result.status).toBe(201);
      const { html } = JSON.parse(result.text);
      expect(html).toMatch(CUT_OFF);
      expect(html).toMatch(/<pre class="markdown-plain">&lt;script&gt;\d&lt;\/script&gt;\n&gt; &gt; /);
      expect(html).not.toContain('<blockquote>');
      expect(renderPoolStats()!.replaced).toBeGreaterThan(before);
      // The replacement renders the next text as usual.
      const next = await kiln.api('POST', '/markdown', { body: { text: '*after*' } });
      expect(next.body.html).toBe('<p><em>after</em></p>\n');
    });

    it('answers the same over-budget text again from the kept answer, without rendering it again', async () => {
      const text = `again\n${nestedQuotes(300_000)}`;
      await kiln.api('POST', '/markdown', { token: owner.token, body: { text, gfm: true } });
      const replaced = renderPoolStats()!.replaced;
      const started = performance.now();
      const again = await kiln.api('POST', '/markdown', { token: owner.token, body: { text, gfm: true } });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(again.body.html).toMatch(CUT_OFF);
      expect(renderPoolStats()!.replaced).toBe(replaced);
    });

    it('shows a text nested deeper than 100 levels as plain text with a notice, not with its depths dropped', async () => {
      const { body } = await kiln.api('POST', '/markdown', { body: { text: `${'> '.repeat(150)}deep`, gfm: true } });
      expect(body.html).toContain('This text nests more than 100 levels deep, so it is shown as plain text.');
      expect(body.html).toContain('deep</pre>');
      const fine = await kiln.api('POST', '/markdown', { body: { text: `${'> '.repeat(50)}fine` } });
      expect(fine.body.html).toContain('<blockquote>\n<p>fine</p>');
    });

    it('renders a reference-style link definition (it was a 500 without gfm)', async () => {
      for (const gfm of [false, true]) {
        const { status, body } = await kiln.api('POST', '/markdown', { body: { text: '[docs]\n\n[docs]: /help "Help"', gfm } });
        expect(status).toBe(201);
        expect(body.html).toBe('<p><a href="/help" title="Help">docs</a></p>\n');
      }
    });

    it('refuses a text over 1,000,000 characters with 400 naming it', async () => {
      const { status, body } = await kiln.api('POST', '/markdown', { token: owner.token, body: { text: 'a'.repeat(1_000_001) } });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain('text');
    });

    it('keeps a long run of dots after an @ from holding the event loop (trailing dots were trimmed by a quadratic pattern)', async () => {
      const payloads = LIVENESS_ATTEMPTS.map((attempt) => JSON.stringify({ text: `${attempt} @${'.'.repeat(200_000)}x and @mdb-owner.`, gfm: true }));
      const { result } = await whileLive(kiln, (attempt) => postMarkdown(payloads[attempt]));
      expect(result.status).toBe(201);
      expect(JSON.parse(result.text).html).toContain('>@mdb-owner</a>.');
    });
  });
});

describe('GET /:namespace/:project/-/issues/:iid', () => {
  describe('as an anonymous visitor, for an issue whose description is hostile Markdown', () => {
    it('answers within the budget while /-/liveness keeps answering, and the next view from the kept HTML', async () => {
      const paths: string[] = [];
      for (const attempt of LIVENESS_ATTEMPTS) {
        const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Planted', description: `${attempt}\n${nestedQuotes(300_000)}` });
        paths.push(`/${owner.username}/planted/-/issues/${issue.iid}`);
      }
      const { result } = await whileLive(kiln, (attempt) => kiln.request('GET', paths[attempt]));
      const path = paths[0];
      expect(result.statusCode).toBe(200);
      expect(result.body).toMatch(CUT_OFF);
      const started = performance.now();
      const again = await kiln.request('GET', path);
      expect(again.statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  });

  describe('as an anonymous visitor, for an issue with 150 comments', () => {
    it('renders every comment, none of them shown plain for want of a worker', async () => {
      const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Busy thread' });
      for (let index = 0; index < 150; index += 1) await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: `*comment ${index}*` });
      const { statusCode, body } = await kiln.request('GET', `/${owner.username}/planted/-/issues/${issue.iid}`);
      expect(statusCode).toBe(200);
      expect(body).not.toContain('markdown-notice');
      for (const index of [0, 75, 149]) expect(body).toContain(`<em>comment ${index}</em>`);
    });
  });
});
