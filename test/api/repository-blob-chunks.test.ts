// A long file on the blob page (issue 35, first view): the first 100 lines highlighted with the page,
// the rest sent plain in chunks that htmx replaces with their highlighted lines when revealed
// (`?chunk=N`). Every line is on the page from the start, and the chunks put together are exactly the
// whole file's highlighting, a comment that crosses a chunk's edge included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { commit, create, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { lineMarkup, lineRows } from '../../src/repositories/pages/file-lines.js';
import { AHEAD_LINES, CHUNK_LINES, highlightedChunk, isAheadChunk } from '../../src/repositories/pages/blob-chunks.js';

const LINES = Array.from({ length: 250 }, (_, index) => (index === 97 ? '/* a comment from line 98' : index === 103 ? 'across the chunk edge to line 104 */' : `export const value${index + 1} = "<b>${index + 1}</b>";`));
const TEXT = `${LINES.join('\n')}\n`;

let kiln: TestKiln;
let world: RepositoryWorld;
let web: WebSession;
let stranger: WebSession;
let commitId: string;
let blob: string;

const rowsOf = (html: string) => html.match(/<tr id="L\d+">.*?<\/tr>/g) ?? [];
const chunkUrl = (n: number | string) => `/${world.project.path_with_namespace}/-/blob/${commitId}/src/long.ts?chunk=${n}`;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  commitId = (await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Add a long file', actions: [create('src/long.ts', TEXT), create('src/short.ts', 'export const a = 1;\n')] })).id;
  web = new WebSession(kiln);
  await web.signIn(world.reporter.username, world.reporter.password);
  stranger = new WebSession(kiln);
  await stranger.signIn(world.stranger.username, world.stranger.password);
  blob = (await web.get(`/${world.project.path_with_namespace}/-/blob/main/src/long.ts`)).body;
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /:project/-/blob/:ref/:path of a long file', () => {
  it('has every line, numbered and anchored, from the start', () => {
    const rows = rowsOf(blob);
    expect(rows).toHaveLength(250);
    expect(rows.map((row) => /id="L(\d+)"/.exec(row)![1])).toEqual(LINES.map((_, index) => String(index + 1)));
  });

  it('highlights the first chunk and sends the later ones plain, each loaded at the commit when revealed', () => {
    const rows = rowsOf(blob);
    expect(rows[0]).toContain('hljs-keyword');
    expect(rows[99]).toContain('hljs-comment');
    expect(rows[100]).not.toContain('hljs-');
    expect(rows[150]).toContain('&lt;b&gt;151&lt;/b&gt;');
    const chunks = [...blob.matchAll(/<tbody class="blob-chunk" data-chunk="(\d+)" hx-get="([^"]+)" hx-trigger="revealed" hx-swap="outerHTML">/g)];
    expect(chunks.map((match) => [match[1], match[2].replace(/&amp;/g, '&')])).toEqual([['1', chunkUrl(1)], ['2', chunkUrl(2)]]);
  });

  it('answers each chunk with its lines highlighted: together, the whole file highlighted at once', async () => {
    const responses = [await web.get(chunkUrl(1)), await web.get(chunkUrl(2))];
    for (const response of responses) expect(response.statusCode).toBe(200);
    expect(responses[0].body).not.toContain('<html');
    const assembled = [...rowsOf(blob).slice(0, 100), ...rowsOf(responses[0].body), ...rowsOf(responses[1].body)];
    expect(assembled).toEqual(rowsOf(lineRows(await lineMarkup('src/long.ts', TEXT), 0)));
    expect(assembled[100]).toContain('hljs-comment');
    expect(assembled[249]).toContain('hljs-string');
  });

  it('cuts the first chunks of a long file from its first lines highlighted ahead, coloured as in the whole file', async () => {
    // A comment crosses the cut between the lines highlighted ahead and the rest.
    const long = Array.from({ length: 2 * AHEAD_LINES + 50 }, (_, index) => (index === AHEAD_LINES - 2 ? '/* a comment across the' : index === AHEAD_LINES + 1 ? 'cut */' : `export const v${index} = "<i>${index}</i>";`));
    const text = `${long.join('\n')}\n`;
    // Nothing kept: the chunks within the lines ahead are cut from those, whatever the whole file's state.
    const file = { path: 'src/ahead.ts', text, blobId: 'ahead-test', store: { read: async () => null, write: async () => undefined } };
    const whole = await lineMarkup('src/ahead.ts', text);
    let aheadChunks = 0;
    for (let n = 1; isAheadChunk(n, long.length); n += 1) {
      aheadChunks += 1;
      const rows = rowsOf(String(await highlightedChunk(file, n)));
      expect(rows, `chunk ${n}`).toEqual(rowsOf(lineRows(whole.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES), n * CHUNK_LINES)));
    }
    expect(aheadChunks).toBe(AHEAD_LINES / CHUNK_LINES - 1);
    expect(rowsOf(String(await highlightedChunk(file, AHEAD_LINES / CHUNK_LINES - 1))).at(-1)).toContain('hljs-comment');
    expect(isAheadChunk(1, 2 * AHEAD_LINES)).toBe(false);
  });

  it.each(['3', '0', '-1', 'x', '1.5', '99999999'])('answers 404 for chunk %j', async (n) => {
    expect((await web.get(chunkUrl(n))).statusCode).toBe(404);
  });

  it('shows a short file whole, with no chunks', async () => {
    const body = (await web.get(`/${world.project.path_with_namespace}/-/blob/main/src/short.ts`)).body;
    expect(rowsOf(body)).toHaveLength(1);
    expect(body).not.toContain('blob-chunk');
    expect((await web.get(`/${world.project.path_with_namespace}/-/blob/main/src/short.ts?chunk=1`)).statusCode).toBe(404);
  });

  it('keeps the chunks of a private project from outsiders', async () => {
    expect((await stranger.get(chunkUrl(1))).statusCode).toBe(404);
  });
});
