// A job's log kept in 128 KiB chunks (GitLab's ci_build_trace_chunks): PATCH /jobs/:id/trace with
// Content-Range appends to the last chunk only (416 with the current Range on a mismatch, 202 with
// Job-Status and Range), concurrent appends at one offset apply once, a masked variable split over
// two appends and a chunk boundary is still masked, GET …/trace streams the chunks in order, erase
// deletes them, the size limit holds, and the migration moves logs kept whole into chunks. The job
// page's poll carries the log's state and gets only the new complete lines, rendered from the colours
// and open sections where the last render stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { WebSession } from '../helpers/browser-session.js';
import { isPostgres } from '../../src/platform/db/migrations/_columns.js';
import { up as chunkLogs } from '../../src/platform/db/migrations/20261231T0815-ci-build-trace-chunks.js';

const CHUNK = 128 * 1024;
const SECRET = 'S3cr3tValue_42';
const ESC = '\x1b';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;

type Job = { id: number; token: string };

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  runnerToken = runner.body.token;
  const variable = await kiln.api('POST', `/projects/${w.project.id}/variables`, { token: w.maintainer.token, body: { key: 'SECRET', value: SECRET, masked: true } });
  expect(variable.status).toBe(201);
  const jobs = Array.from({ length: 9 }, (_, n) => `job-${n}:\n  script: make\n`).join('');
  await commit(kiln, w.owner.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', jobs)] });
  await kiln.worker.drain();
});
afterAll(async () => kiln?.close());

async function claim(): Promise<Job> {
  const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
  expect(claimed.statusCode).toBe(201);
  return claimed.json() as Job;
}

const patch = (job: Job, start: number, data: Buffer | string) => {
  const bytes = Buffer.from(data);
  return kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${job.id}/trace`, payload: bytes, headers: { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': `${start}-${start + bytes.length - 1}` } });
};

async function trace(job: Job): Promise<Buffer> {
  const response = await kiln.app.inject({ method: 'GET', url: `/api/v4/projects/${w.project.id}/jobs/${job.id}/trace`, headers: { 'private-token': w.reporter.token } });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

async function chunks(job: Job): Promise<{ index: number; length: number; data: Buffer }[]> {
  const rows = await kiln.deps.db.selectFrom('ci_build_trace_chunks').select(['chunk_index', 'data']).where('build_id', '=', job.id).orderBy('chunk_index').execute();
  return rows.map((row) => ({ index: Number(row.chunk_index), length: row.data.length, data: Buffer.from(row.data) }));
}

/** Printable bytes that differ from chunk to chunk, so a misplaced chunk shows. */
const filler = (length: number, seed = 0) => Buffer.from(Array.from({ length }, (_, n) => 97 + ((n + seed) % 26)));

describe('PATCH /jobs/:id/trace in chunks', () => {
  it('appends across chunk boundaries, answers 202 with Job-Status and Range, and never rewrites a full chunk', async () => {
    const job = await claim();
    const log = filler(300_000);
    for (let offset = 0; offset < log.length; offset += 50_000) {
      const answer = await patch(job, offset, log.subarray(offset, offset + 50_000));
      expect(answer.statusCode).toBe(202);
      expect(answer.headers['job-status']).toBe('running');
      expect(answer.headers.range).toBe(`0-${Math.min(log.length, offset + 50_000)}`);
    }
    expect((await chunks(job)).map((chunk) => [chunk.index, chunk.length])).toEqual([[0, CHUNK], [1, CHUNK], [2, 300_000 - 2 * CHUNK]]);
    expect((await trace(job)).equals(log)).toBe(true);
    // A full chunk is never read back and written again: one changed behind Kiln's back stays as it is.
    const marked = Buffer.alloc(CHUNK, 'X');
    await kiln.deps.db.updateTable('ci_build_trace_chunks').set({ data: marked }).where('build_id', '=', job.id).where('chunk_index', '=', 1).execute();
    const more = filler(200_000, 7);
    expect((await patch(job, log.length, more)).statusCode).toBe(202);
    const after = await chunks(job);
    expect(after.map((chunk) => [chunk.index, chunk.length])).toEqual([[0, CHUNK], [1, CHUNK], [2, CHUNK], [3, 500_000 - 3 * CHUNK]]);
    expect(after[1].data.equals(marked)).toBe(true);
    expect(Buffer.concat(after.slice(2).map((chunk) => chunk.data)).equals(Buffer.concat([log, more]).subarray(2 * CHUNK))).toBe(true);
  });

  it('answers 416 with the current Range when the start is not the log length, and keeps the size limit', async () => {
    const job = await claim();
    expect((await patch(job, 0, 'hello\n')).statusCode).toBe(202);
    const wrong = await patch(job, 3, 'again\n');
    expect([wrong.statusCode, wrong.headers.range, wrong.json()]).toEqual([416, '0-6', { message: '416 Range Not Satisfiable' }]);
    const ahead = await patch(job, 7, 'later\n');
    expect([ahead.statusCode, ahead.headers.range]).toEqual([416, '0-6']);
    expect((await trace(job)).toString()).toBe('hello\n');
    // Past GitLab's (here 16 MiB) limit the job fails with trace_size_exceeded, and nothing is stored.
    const over = await patch(job, 16 * 1024 * 1024, 'x');
    expect([over.statusCode, over.headers['job-status'], over.json()]).toEqual([403, 'failed', { message: '403 Forbidden - The job log size limit was reached' }]);
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/jobs/${job.id}`)).failure_reason).toBe('trace_size_exceeded');
    expect((await trace(job)).toString()).toBe('hello\n');
  });

  it('applies one of several appends sent at once to the same offset, the others answered 416', async () => {
    const job = await claim();
    const first = filler(CHUNK - 10);
    expect((await patch(job, 0, first)).statusCode).toBe(202);
    const pieces = Array.from({ length: 6 }, (_, n) => Buffer.from(`${String(n).repeat(30)}\n`));
    const answers = await Promise.all(pieces.map((piece) => patch(job, first.length, piece)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([202, 416, 416, 416, 416, 416]);
    const winner = pieces[answers.findIndex((answer) => answer.statusCode === 202)];
    expect((await trace(job)).equals(Buffer.concat([first, winner]))).toBe(true);
    expect((await chunks(job)).map((chunk) => chunk.length)).toEqual([CHUNK, first.length + winner.length - CHUNK]);
    for (const answer of answers.filter((one) => one.statusCode === 416)) expect(answer.headers.range).toBe(`0-${first.length + winner.length}`);
  });

  it('masks a variable split over two appends and a chunk boundary, the chunks refilled', async () => {
    // The secret starts 3 bytes before the boundary; the first append ends 2 bytes into the next chunk.
    const job = await claim();
    const before = filler(CHUNK - 3);
    const firstPart = Buffer.concat([before, Buffer.from(SECRET.slice(0, 5))]);
    expect((await patch(job, 0, firstPart)).statusCode).toBe(202);
    const rest = Buffer.from(`${SECRET.slice(5)} done\n`);
    const answer = await patch(job, firstPart.length, rest);
    // Offsets stay the runner's: the bytes it sent, not the shorter stored log.
    expect(answer.headers.range).toBe(`0-${firstPart.length + rest.length}`);
    const expected = Buffer.concat([before, Buffer.from('[MASKED] done\n')]);
    const stored = await trace(job);
    expect(stored.toString()).not.toContain(SECRET.slice(0, 8));
    expect(stored.equals(expected)).toBe(true);
    expect((await chunks(job)).map((chunk) => chunk.length)).toEqual([CHUNK, expected.length - CHUNK]);
    // A whole secret in one append, straddling the next boundary, is masked too.
    const pad = filler(2 * CHUNK - expected.length - 4, 3);
    expect((await patch(job, firstPart.length + rest.length, Buffer.concat([pad, Buffer.from(`${SECRET}\n`)]))).statusCode).toBe(202);
    const whole = await trace(job);
    expect(whole.equals(Buffer.concat([expected, pad, Buffer.from('[MASKED]\n')]))).toBe(true);
  });

  it('streams a long log in order, and erasing the job deletes its chunks', async () => {
    const job = await claim();
    const log = filler(CHUNK * 9 + 123, 5);
    expect((await patch(job, 0, log)).statusCode).toBe(202);
    expect((await chunks(job)).length).toBe(10);
    expect((await trace(job)).equals(log)).toBe(true);
    expect((await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).statusCode).toBe(200);
    expect((await kiln.api('POST', `/projects/${w.project.id}/jobs/${job.id}/erase`, { token: w.maintainer.token })).status).toBe(201);
    expect(await chunks(job)).toEqual([]);
    expect((await trace(job)).length).toBe(0);
    expect((await kiln.api('POST', `/projects/${w.project.id}/jobs/${job.id}/erase`, { token: w.maintainer.token })).body).toEqual({ message: '403 Forbidden - Job is not erasable!' });
  });
});

describe('the migration to chunks', () => {
  it('moves logs kept whole into 128 KiB chunks and drops the old table', async () => {
    const job = await claim();
    const db = kiln.deps.db as unknown as Kysely<any>;
    const long = filler(CHUNK * 2 + 5, 11);
    // The schema before the migration: ci_build_traces, one row a job.
    await db.schema.dropTable('ci_build_trace_chunks').execute();
    await db.schema
      .createTable('ci_build_traces')
      .addColumn('build_id', 'bigint', (c) => c.primaryKey().references('ci_builds.id').onDelete('cascade'))
      .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();
    await db.insertInto('ci_build_traces').values({ build_id: job.id, data: long }).execute();
    await chunkLogs(db);
    expect((await chunks(job)).map((chunk) => chunk.length)).toEqual([CHUNK, CHUNK, 5]);
    expect((await trace(job)).equals(long)).toBe(true);
    await expect(sql`select count(*) from ci_build_traces`.execute(db)).rejects.toThrow();
    // Appends go on from the moved log's end.
    expect((await patch(job, 0, 'more\n')).statusCode).toBe(202);
    expect((await chunks(job)).map((chunk) => chunk.length)).toEqual([CHUNK, CHUNK, 10]);
    expect((await trace(job)).equals(Buffer.concat([long, Buffer.from('more\n')]))).toBe(true);
  });
});

describe('the job page polls for what is new', () => {
  it('renders only the new complete lines, in the colours and the open section where the last render stopped', async () => {
    const job = await claim();
    const web = new WebSession(kiln);
    await web.signIn(w.reporter.username, w.reporter.password);
    const page = `/${w.project.path_with_namespace}/-/jobs/${job.id}`;
    let sent = 0;
    const send = async (text: string) => {
      expect((await patch(job, sent, text)).statusCode).toBe(202);
      sent += Buffer.byteLength(text);
    };
    const pollUrlOf = (body: string) => /<div id="job-panel"[^>]* hx-get="([^"]+)"/.exec(body)?.[1];

    await send(`${ESC}[32mfirst green\n`);
    const shown = (await web.get(page)).body;
    expect(shown).toContain('<span class="ansi-green-fg">first green');
    let poll = pollUrlOf(shown)!;
    expect(poll).toMatch(new RegExp(`^${page}/log\\?state=[\\w-]+$`));

    const sectionAt = sent + Buffer.byteLength('still green\n');
    await send(`still green\nsection_start:100:build_step\r${ESC}[0KBuilding\ninside one\npartial`);
    let fragment = (await web.get(poll)).body;
    expect(fragment.startsWith('<div id="job-panel"')).toBe(true);
    expect(fragment).not.toContain('first green');
    expect(fragment).not.toContain('partial');
    expect(fragment).toContain('<div hx-swap-oob="beforeend:#job-log"><span class="ansi-green-fg">still green\n</span>');
    expect(fragment).toContain(`<details class="log-section" data-section="build_step" open><summary><span class="ansi-green-fg">Building</span><span class="log-duration" id="log-section-${sectionAt}-duration"></span></summary><div class="log-section-body" id="log-section-${sectionAt}"><span class="ansi-green-fg">inside one\n</span></div></details>`);

    // The partial line completes, the section ends: its body grows by id, its duration is filled in.
    await send(` done\ninside two\nsection_end:105:build_step\r${ESC}[0K\n${ESC}[0mafter\n`);
    poll = pollUrlOf(fragment)!;
    fragment = (await web.get(poll)).body;
    expect(fragment).toContain(`<div hx-swap-oob="beforeend:#log-section-${sectionAt}"><span class="ansi-green-fg">partial done\ninside two\n</span></div>`);
    expect(fragment).toContain(`<span class="log-duration" id="log-section-${sectionAt}-duration" hx-swap-oob="true">00:05</span>`);
    expect(fragment).toContain('<div hx-swap-oob="beforeend:#job-log">after\n</div>');
    expect(fragment).not.toContain('inside one');

    // Nothing new: the panel alone. A state that does not fit the log (an offset inside a line): the whole block.
    poll = pollUrlOf(fragment)!;
    expect((await web.get(poll)).body).not.toContain('hx-swap-oob');
    const forged = Buffer.from(JSON.stringify({ offset: 3, style: { fg: null, bg: null, bold: false, faint: false, italic: false, underline: false }, sections: [] })).toString('base64url');
    for (const state of [forged, 'not-a-state', '']) {
      const whole = (await web.get(`${page}/log?state=${state}`)).body;
      expect(whole).toContain('<div id="job-log-block" hx-swap-oob="true">');
      expect(whole).toContain('first green');
    }

    // The job ends with a line that has no newline: the last poll shows it, and polling stops.
    await send('last words');
    expect((await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).statusCode).toBe(200);
    fragment = (await web.get(poll)).body;
    expect(fragment).toContain('<div hx-swap-oob="beforeend:#job-log">last words</div>');
    expect(pollUrlOf(fragment)).toBeUndefined();
    // The page rendered whole shows the same log, the section closed in place.
    const final = (await web.get(page)).body;
    expect(final).toContain(`<details class="log-section" data-section="build_step" open><summary><span class="ansi-green-fg">Building</span><span class="log-duration">00:05</span></summary><span class="ansi-green-fg">inside one\npartial done\ninside two\n</span></details>after\nlast words`);
  });
});

describe('the trace update interval', () => {
  it('asks the runner for its log every 60 s, every 3 s for 10 s after a viewer opened the job page or polled it', async () => {
    const job = await claim();
    const interval = (answer: { headers: Record<string, unknown> }) => answer.headers['x-gitlab-trace-update-interval'];
    const update = () => kiln.app.inject({ method: 'PUT', url: `/api/v4/jobs/${job.id}`, payload: { token: job.token, state: 'running' } });
    let sent = 0;
    const send = async (text: string) => {
      const answer = await patch(job, sent, text);
      expect(answer.statusCode).toBe(202);
      sent += text.length;
      return answer;
    };
    expect(interval(await send('one\n'))).toBe('60');
    expect(interval(await update())).toBe('60');

    const web = new WebSession(kiln);
    await web.signIn(w.reporter.username, w.reporter.password);
    const page = `/${w.project.path_with_namespace}/-/jobs/${job.id}`;
    expect((await web.get(page)).statusCode).toBe(200);
    expect(interval(await send('two\n'))).toBe('3');
    expect(interval(await update())).toBe('3');

    // Ten seconds later, with no viewer, the runner is told to slow down; a poll of the page watches again.
    kiln.clock.advance(10_001);
    expect(interval(await send('three\n'))).toBe('60');
    expect((await web.get(`${page}/log`)).statusCode).toBe(200);
    expect(interval(await send('four\n'))).toBe('3');
    kiln.clock.advance(9_000);
    expect(interval(await send('five\n'))).toBe('3');
  });

  it('writes the watch to the job row only when less than half of its 10 s is left, not on every poll', async () => {
    const job = await claim();
    const web = new WebSession(kiln);
    await web.signIn(w.reporter.username, w.reporter.password);
    const poll = `/${w.project.path_with_namespace}/-/jobs/${job.id}/log`;
    const watchedUntil = async () => Number((await kiln.deps.db.selectFrom('ci_builds').select('trace_watched_until').where('id', '=', job.id).executeTakeFirstOrThrow()).trace_watched_until);
    const first = kiln.clock.now();
    expect((await web.get(poll)).statusCode).toBe(200);
    expect(await watchedUntil()).toBe(first + 10_000);
    // 2 s later, 8 s are left: nothing is written.
    kiln.clock.advance(2_000);
    expect((await web.get(poll)).statusCode).toBe(200);
    expect(await watchedUntil()).toBe(first + 10_000);
    // 6 s after the first, 4 s are left: the watch moves to 10 s from now.
    kiln.clock.advance(4_000);
    expect((await web.get(poll)).statusCode).toBe(200);
    expect(await watchedUntil()).toBe(first + 16_000);
  });
});
