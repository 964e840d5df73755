// The CI pages (issue 39): the pipelines list with its tabs and filters, "Run pipeline", a pipeline's
// stages, jobs and needs, retry and cancel, a job with its log (colours as classes, sections, escaped),
// polled while it runs, its raw log and artifacts, the jobs list; the abilities the pages declare
// (those of the API's routes), CSRF, and job names, refs and log text escaped. A runner drives the
// jobs through GitLab's runner protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { renderJobLog, renderLogText } from '../../src/ci/pages/job-log.js';
import { logRenderPoolStats, renderLogOffLoop } from '../../src/ci/pages/log-render-pool.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let base: string;
let runnerToken: string;
let pipelineId: number;
let buildJob: { id: number; token: string };

const XSS_JOB = 'test <img src=x onerror=alert(1)>';
const XSS_REF = '<svg/onload=alert(1)>';
const CONFIG = `
stages: [build, test, deploy]
build:
  stage: build
  script: make
  artifacts: { paths: [out/], expose_as: 'Build <output>' }
"${XSS_JOB}":
  stage: test
  script: make test
  needs: [build]
deploy:
  stage: deploy
  script: ./deploy
  when: manual
`;
const ESC = '\u001b';
const LOG = [
  `section_start:1700000000:prepare_script\r${ESC}[0K${ESC}[36;1mPreparing environment${ESC}[0;m`,
  'Running on runner-1',
  `section_end:1700000065:prepare_script\r${ESC}[0K`,
  `${ESC}[32;1m$ make${ESC}[0;m`,
  '<script>alert("log")</script>',
  `${ESC}[1m${ESC}[31mbold red${ESC}[0m`,
  '',
].join('\n');

const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 20_000 });
  w = await repositoryWorld(kiln);
  base = `/${w.project.path_with_namespace}`;
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Add the <b>pipeline</b>', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await kiln.worker.drain();
  const reset = await kiln.api('POST', `/projects/${w.project.id}/runners/reset_registration_token`, { token: w.maintainer.token });
  runnerToken = (await runnerCall('POST', '/runners', { token: reset.body.token, description: 'pages runner' })).json().token;
  pipelineId = (await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.maintainer.token })).body[0].id;
  const requested = await runnerCall('POST', '/jobs/request', { token: runnerToken, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });
  expect(requested.statusCode).toBe(201);
  buildJob = { id: requested.json().id, token: requested.json().token };
  const trace = await kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${buildJob.id}/trace`, payload: Buffer.from(LOG), headers: { 'content-type': 'text/plain', 'job-token': buildJob.token, 'content-range': `0-${Buffer.byteLength(LOG) - 1}` } });
  expect(trace.statusCode).toBe(202);
});

afterAll(async () => {
  await kiln?.close();
});

describe('the job log', () => {
  it('turns colours into classes, sections into details, and escapes the text', async () => {
    const markup = (await renderJobLog(Buffer.from(LOG))).html.value;
    expect(markup).toContain('<details class="log-section" data-section="prepare_script" open><summary><span class="ansi-cyan-fg ansi-bold">Preparing environment</span><span class="log-duration">01:05</span></summary>Running on runner-1\n</details>');
    expect(markup).toContain('<span class="ansi-green-fg ansi-bold">$ make</span>');
    expect(markup).toContain('&lt;script&gt;alert(&quot;log&quot;)&lt;/script&gt;');
    expect(markup).not.toContain('style=');
    expect(markup).not.toContain('section_');
  });

  it('keeps collapsed sections closed, drops an end without a start, and shows what a carriage return leaves', async () => {
    const markup = (await renderJobLog(Buffer.from(`section_start:1:a[collapsed=true]\r${ESC}[0KHead\ninside\nsection_end:2:a\r${ESC}[0K\nsection_end:3:b\r${ESC}[0K\n10%\r50%\r100%\n`))).html.value;
    expect(markup).toContain('<details class="log-section" data-section="a"><summary>Head<span class="log-duration">00:01</span></summary>inside\n</details>');
    expect(markup).toContain('100%\n');
    expect(markup).not.toContain('10%');
  });

  it('renders only the end of a long log', async () => {
    const long = Buffer.from(`${'x'.repeat(100)}\n`.repeat(10_000));
    const rendered = await renderJobLog(long);
    expect(rendered.truncated).toBeGreaterThan(0);
    expect(rendered.html.value.length).toBeLessThanOrEqual(512 * 1024);
  });

  // A log as GitLab Runner writes it: sections (one collapsed, one left open at the end), colours set
  // on one line and kept over the next, a progress bar of carriage returns, HTML to escape.
  const bigLog = () => {
    const lines: string[] = [];
    for (let n = 0; n < 6000; n += 1) {
      if (n % 700 === 0) lines.push(`section_start:${1_700_000_000 + n}:step_${n}${n % 1400 === 0 ? '[collapsed=true]' : ''}\r${ESC}[0K${ESC}[32;1mStep ${n}${ESC}[0;m`);
      else if (n % 700 === 699) lines.push(`section_end:${1_700_000_000 + n}:step_${n - 699}\r${ESC}[0K`);
      else if (n % 97 === 0) lines.push(`${ESC}[0;31mred from here <b>${n}</b>`);
      else if (n % 97 === 1) lines.push(`still red ${n}${ESC}[0m`);
      else lines.push(`10%\r50%\r${ESC}[0;33m[${n}]${ESC}[0;m compiling module-${n % 13} ... ok`);
    }
    return `${lines.join('\n')}\nsection_start:1700009999:open_one\r${ESC}[0Kstill open\nlast line\n`;
  };
  // Two spans of one style side by side are one run of text on the page: pieces cut between them.
  const merged = (markup: string) => {
    let previous = '';
    let current = markup;
    while (current !== previous) {
      previous = current;
      current = current.replace(/<span class="([^"]*)">([^<]*)<\/span><span class="\1">/g, '<span class="$1">$2');
    }
    return current;
  };

  it('renders a long log in pieces, giving other work turns, as it renders it in one pass', async () => {
    const log = bigLog();
    expect(log.length).toBeGreaterThan(8 * 32 * 1024);
    let turns = 0;
    let spinning = true;
    const spin = () => {
      if (!spinning) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    const sliced = await renderLogText(log, 0, null);
    spinning = false;
    // Without pieces the render holds the event loop from start to end: nothing else runs.
    expect(turns).toBeGreaterThan(4);
    const whole = await renderLogText(log, 0, null, Number.POSITIVE_INFINITY);
    expect(sliced.state).toEqual(whole.state);
    expect(sliced.closed).toEqual(whole.closed);
    expect(sliced.appends.map((piece) => piece.section)).toEqual(whole.appends.map((piece) => piece.section));
    expect(sliced.appends.map((piece) => merged(piece.markup))).toEqual(whole.appends.map((piece) => merged(piece.markup)));
    expect(whole.appends[0].markup).toContain('<span class="ansi-red-fg">red from here &lt;b&gt;97&lt;/b&gt;\nstill red 98</span>');
  });

  it('renders for the pages on a worker thread, as the event loop renders it', async () => {
    const log = bigLog();
    const before = logRenderPoolStats();
    const offLoop = await renderLogOffLoop(log, 0, null);
    const onLoop = await renderLogText(log, 0, null, Number.POSITIVE_INFINITY);
    expect(offLoop).toEqual(onLoop);
    // The pool started a worker for it (or had one), and no render fell back to the event loop.
    const after = logRenderPoolStats();
    expect(after.workers).toBeGreaterThan(0);
    expect(after.fallbacks).toBe(before.fallbacks);
    expect(after.rendered).toBe(before.rendered + 1);
  });

  it('catches up from a state as far behind as a page can be as a render of the whole gives it', async () => {
    const log = Buffer.from(bigLog());
    const half = log.lastIndexOf(0x0a, log.length / 2) + 1;
    const first = await renderLogText(log.subarray(0, half).toString('utf8'), 0, null, Number.POSITIVE_INFINITY);
    const rest = await renderLogText(log.subarray(half).toString('utf8'), half, first.state);
    const whole = await renderLogText(log.toString('utf8'), 0, null, Number.POSITIVE_INFINITY);
    expect(rest.state).toEqual(whole.state);
    // What the page shows after the catch-up: the open section's body grown by its append, the rest appended to the log.
    const shown = merged([...first.appends, ...rest.appends].map((piece) => piece.markup).join(''));
    // Durations aside (a section closed by the catch-up gets its duration by id, as `closed` says).
    const text = (markup: string) => merged(markup).replace(/<span class="log-duration"[^>]*>[^<]*<\/span>/g, '').replace(/<[^>]+>/g, '');
    expect(rest.closed.length).toBeGreaterThan(0);
    expect(text(shown)).toEqual(text(whole.appends.map((piece) => piece.markup).join('')));
  });
});

describe('GET /:project/-/pipelines', () => {
  it('lists pipelines with status, ref, commit, source, stages and the Run pipeline button for Developers', async () => {
    const response = await (await signedIn(w.developer)).get(`${base}/-/pipelines`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`data-pipeline="${pipelineId}"`);
    expect(response.body).toContain('data-ci-status="running"');
    expect(response.body).toContain('<code>main</code>');
    expect(response.body).toContain('Add the &lt;b&gt;pipeline&lt;/b&gt;');
    expect(response.body).toContain('data-source="push"');
    expect(response.body).toContain(`href="${base}/-/pipelines/${pipelineId}#stage-1"`);
    expect(response.body).toContain('id="run-pipeline"');
    expect(response.body).toContain(`href="${base}/-/pipelines" aria-current="page">Pipelines</a>`);
  });

  it("links a commit's CI status on the repository pages to its pipeline page", async () => {
    const commits = await (await signedIn(w.reporter)).get(`${base}/-/commits/main`);
    expect(commits.body).toContain(`href="${base}/-/pipelines/${pipelineId}"`);
  });

  it('filters by tab and status', async () => {
    const web = await signedIn(w.reporter);
    expect((await web.get(`${base}/-/pipelines?scope=finished`)).body).not.toContain(`data-pipeline="${pipelineId}"`);
    expect((await web.get(`${base}/-/pipelines?scope=branches`)).body).toContain(`data-pipeline="${pipelineId}"`);
    expect((await web.get(`${base}/-/pipelines?scope=tags`)).body).toContain('No pipelines match these filters.');
    expect((await web.get(`${base}/-/pipelines?status=running`)).body).toContain(`data-pipeline="${pipelineId}"`);
    expect((await web.get(`${base}/-/pipelines?status=failed&ref=main`)).body).not.toContain(`data-pipeline="${pipelineId}"`);
    expect((await web.get(`${base}/-/pipelines?status=bogus&page=x`)).statusCode).toBe(200);
  });

  it('shows Reporters no Run pipeline button; Guests, strangers and anonymous visitors of a private project get no page', async () => {
    expect((await (await signedIn(w.reporter)).get(`${base}/-/pipelines`)).body).not.toContain('id="run-pipeline"');
    // GitLab: a Guest of a private project reads no pipelines (a member: told so, 403).
    expect((await (await signedIn(w.guest)).get(`${base}/-/pipelines`)).statusCode).toBe(403);
    expect((await (await signedIn(w.stranger)).get(`${base}/-/pipelines`)).statusCode).toBe(404);
    expect((await (await signedIn(w.stranger)).get(`${base}/-/jobs/${buildJob.id}`)).statusCode).toBe(404);
    const anonymous = await new WebSession(kiln).get(`${base}/-/pipelines/${pipelineId}`);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/users\/sign_in/);
    expect((await (await signedIn(w.guest)).get(base)).body).not.toContain('/-/pipelines');
  });
});

describe('GET /:project/-/pipelines/:id', () => {
  it('shows the header, the stages with their jobs and needs, escaped, and Cancel to Maintainers of the protected main', async () => {
    const response = await (await signedIn(w.developer)).get(`${base}/-/pipelines/${pipelineId}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`Pipeline <strong>#${pipelineId}</strong>`);
    expect(response.body).toContain(`<a href="/${w.maintainer.username}">`);
    expect(response.body).toContain('id="stage-1"');
    expect(response.body).toContain('test &lt;img src=x onerror=alert(1)&gt;');
    expect(response.body).not.toContain('<img src=x');
    expect(response.body).toMatch(/Needs: <a href="[^"]+\/-\/jobs\/\d+">build<\/a>/);
    // A Developer may not push or merge to main, so the API would refuse them: no Cancel, no Run.
    expect(response.body).not.toContain(`action="${base}/-/pipelines/${pipelineId}/cancel"`);
    expect(response.body).not.toContain('/play"');
    const maintainer = await (await signedIn(w.maintainer)).get(`${base}/-/pipelines/${pipelineId}`);
    expect(maintainer.body).toContain(`action="${base}/-/pipelines/${pipelineId}/cancel"`);
    expect(maintainer.body).not.toContain(`action="${base}/-/pipelines/${pipelineId}/retry"`);
  });

  it('draws the needs graph when grouped by job dependencies, each job a link naming what it needs', async () => {
    const web = await signedIn(w.reporter);
    const staged = await web.get(`${base}/-/pipelines/${pipelineId}`);
    expect(staged.body).toContain(`Group jobs by: <a href="${base}/-/pipelines/${pipelineId}" class="active" aria-current="page">Stage</a>`);
    expect(staged.body).not.toContain('<svg');
    const graph = await web.get(`${base}/-/pipelines/${pipelineId}?group_by=dependencies`);
    expect(graph.statusCode).toBe(200);
    expect(graph.body).toContain(`href="${base}/-/pipelines/${pipelineId}?group_by=dependencies" class="active" aria-current="page">Job dependencies</a>`);
    expect(graph.body).not.toContain('id="pipeline-graph"');
    expect(graph.body).not.toContain('<img src=x');
    expect(graph.body).not.toMatch(/ style=/);
    // One line, from build to the job that needs it; deploy (no needs) waits for the stages before it.
    expect(graph.body.match(/class="needs-edge"/g)).toHaveLength(1);
    expect(graph.body).toContain('data-from="build" data-to="test &lt;img src=x onerror=alert(1)&gt;"');
    expect(graph.body).toMatch(/aria-label="test &lt;img src=x onerror=alert\(1\)&gt;: (pending|created), needs build"/);
    expect(graph.body).toContain('aria-label="build: running, needs no other job"');
    expect(graph.body).toMatch(/aria-label="deploy: (manual|created), runs after the earlier stages"/);
    const column = (job: string) => Number(new RegExp(`data-job="${job}"[^>]*><title>[^<]*</title><rect x="(\\d+)"`).exec(graph.body)?.[1]);
    expect(column('build')).toBeLessThan(column('test &lt;img src=x onerror=alert\\(1\\)&gt;'));
    expect(column('deploy')).toBeGreaterThan(column('test &lt;img src=x onerror=alert\\(1\\)&gt;'));
  });

  it('has a Jobs tab and answers 404 for a pipeline of another project', async () => {
    const jobs = await (await signedIn(w.reporter)).get(`${base}/-/pipelines/${pipelineId}/builds`);
    expect(jobs.statusCode).toBe(200);
    expect(jobs.body).toMatch(/data-tab="jobs" aria-current="page">Jobs <span class="badge">3</);
    expect(jobs.body).not.toContain('/cancel"');
    const other = await kiln.createProject(w.owner, 'other');
    expect((await (await signedIn(w.owner)).get(`/${other.path_with_namespace}/-/pipelines/${pipelineId}`)).statusCode).toBe(404);
  });
});

describe('GET /:project/-/jobs/:id', () => {
  it('shows a running job with its log (classes, a section, escaped) polled by htmx', async () => {
    const response = await (await signedIn(w.reporter)).get(`${base}/-/jobs/${buildJob.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(new RegExp(`hx-get="${base}/-/jobs/${buildJob.id}/log\\?state=[\\w-]+" hx-trigger="every 2s"`));
    expect(response.body).toContain('class="ansi-green-fg ansi-bold"');
    expect(response.body).toContain('data-section="prepare_script"');
    expect(response.body).toContain('&lt;script&gt;alert(&quot;log&quot;)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>alert');
    expect(response.body).toContain('pages runner');
    expect(response.body).not.toContain('/cancel"');
    const fragment = await (await signedIn(w.reporter)).get(`${base}/-/jobs/${buildJob.id}/log`);
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body.startsWith('<div id="job-panel"')).toBe(true);
    expect(fragment.body).not.toContain('<html');
  });

  it('answers the raw log as text', async () => {
    const response = await (await signedIn(w.reporter)).get(`${base}/-/jobs/${buildJob.id}/raw`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe(LOG);
  });

  it('stops polling when the job finished, and offers its artifacts', async () => {
    const archive = Buffer.from(zipSync({ 'out/app.bin': Buffer.from('binary'), 'out/<b>.txt': Buffer.from('x') }));
    const boundary = '----kilnboundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`),
      archive,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${buildJob.id}/artifacts?artifact_type=archive&artifact_format=zip`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': buildJob.token } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect((await runnerCall('PUT', `/jobs/${buildJob.id}`, { token: buildJob.token, state: 'success' })).statusCode).toBe(200);
    const web = await signedIn(w.developer);
    const response = await web.get(`${base}/-/jobs/${buildJob.id}`);
    expect(response.body).not.toContain('hx-trigger="every');
    expect(response.body).toContain('data-ci-status="success"');
    expect(response.body).toContain(`href="${base}/-/jobs/${buildJob.id}/artifacts/download"`);
    // Retry on the protected main: for those who may merge there (Maintainers), not this Developer.
    expect(response.body).not.toContain(`action="${base}/-/jobs/${buildJob.id}/retry"`);
    expect((await (await signedIn(w.maintainer)).get(`${base}/-/jobs/${buildJob.id}`)).body).toContain(`action="${base}/-/jobs/${buildJob.id}/retry"`);
    const browse = await web.get(`${base}/-/jobs/${buildJob.id}/artifacts/browse`);
    expect(browse.statusCode).toBe(200);
    expect(browse.body).toContain(`href="${base}/-/jobs/${buildJob.id}/artifacts/browse/out">out/</a>`);
    const out = await web.get(`${base}/-/jobs/${buildJob.id}/artifacts/browse/out`);
    expect(out.body).toContain(`href="${base}/-/jobs/${buildJob.id}/artifacts/raw/out/app.bin" download>app.bin</a>`);
    expect(out.body).toContain(`/artifacts/raw/out/%3Cb%3E.txt" download>&lt;b&gt;.txt</a>`);
    // artifacts:expose_as: GitLab's "View exposed artifact", to the directory its single path names.
    const pipelinePage = await web.get(`${base}/-/pipelines/${pipelineId}`);
    expect(pipelinePage.body).toContain(`<summary>View exposed artifact</summary><ul class="plain"><li><a href="${base}/-/jobs/${buildJob.id}/artifacts/browse/out" class="exposed-artifact">Build &lt;output&gt;</a>`);
    const download = await web.get(`${base}/-/jobs/${buildJob.id}/artifacts/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(archive)).toBe(true);
    expect((await web.get(`${base}/-/jobs/${Number(buildJob.id) + 1}/artifacts/download`)).statusCode).toBe(404);
  });
});

describe('the merge widget', () => {
  it("shows the head pipeline's exposed artifacts (CI's widget section), to those who may read pipelines", async () => {
    // main (whose pipeline's build exposes its artifacts) into a branch that went its own way.
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'before-ci', start_branch: 'main', commit_message: 'elsewhere', actions: [create('elsewhere.txt')] });
    const created = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.maintainer.token, body: { source_branch: 'main', target_branch: 'before-ci', title: 'Exposed' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const mr = created.body;
    await kiln.worker.drain();
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`, { token: w.maintainer.token })).body.head_pipeline).toMatchObject({ id: pipelineId });
    const page = await (await signedIn(w.developer)).get(`${base}/-/merge_requests/${mr.iid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(new RegExp(`id="merge-widget"[^]*<summary>View exposed artifact</summary><ul class="plain"><li><a href="${base}/-/jobs/${buildJob.id}/artifacts/browse/out" class="exposed-artifact">Build &lt;output&gt;</a>`));
    const widget = await (await signedIn(w.developer)).get(`${base}/-/merge_requests/${mr.iid}/widget`);
    expect(widget.body).toContain('View exposed artifact');
  });
});

describe('actions', () => {
  it('refuses Reporters (403) and forms without a CSRF token (422)', async () => {
    const reporter = await signedIn(w.reporter);
    expect((await reporter.post(`${base}/-/pipelines/${pipelineId}/cancel`, {}, { csrfFrom: `${base}/-/pipelines` })).statusCode).toBe(403);
    expect((await reporter.post(`${base}/-/jobs/${buildJob.id}/retry`, {}, { csrfFrom: `${base}/-/pipelines` })).statusCode).toBe(403);
    expect((await reporter.get(`${base}/-/pipelines/new`)).statusCode).toBe(403);
    const developer = await signedIn(w.developer);
    expect((await developer.post(`${base}/-/pipelines/${pipelineId}/cancel`, { authenticity_token: 'forged' })).statusCode).toBe(422);
  });

  it('plays a manual job, retries a job and cancels the pipeline for Developers', async () => {
    const developer = await signedIn(w.developer);
    // On a main only Maintainers push and merge to, a Developer may not (GitLab's protected_ref rule);
    // once Developers may merge there, they may.
    expect((await developer.post(`${base}/-/pipelines/${pipelineId}/cancel`, {}, { csrfFrom: `${base}/-/pipelines/${pipelineId}` })).statusCode).toBe(403);
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/protected_branches/main`, { token: w.maintainer.token })).status).toBe(204);
    expect((await kiln.api('POST', `/projects/${w.project.id}/protected_branches`, { token: w.maintainer.token, body: { name: 'main', push_access_level: 40, merge_access_level: 30 } })).status).toBe(201);
    const jobs = (await kiln.api('GET', `/projects/${w.project.id}/pipelines/${pipelineId}/jobs`, { token: w.developer.token })).body as any[];
    const test = jobs.find((job) => job.name === XSS_JOB);
    const canceled = await developer.post(`${base}/-/pipelines/${pipelineId}/cancel`, {}, { csrfFrom: `${base}/-/pipelines/${pipelineId}` });
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`${base}/-/pipelines/${pipelineId}`);
    expect((await kiln.api('GET', `/projects/${w.project.id}/jobs/${test.id}`, { token: w.developer.token })).body.status).toBe('canceled');
    const page = await developer.get(`${base}/-/pipelines/${pipelineId}`);
    expect(page.body).toContain(`action="${base}/-/pipelines/${pipelineId}/retry"`);
    const retried = await developer.post(`${base}/-/jobs/${test.id}/retry`, {}, { csrfFrom: `${base}/-/jobs/${test.id}` });
    expect(retried.statusCode).toBe(303);
    const copy = Number(/\/-\/jobs\/(\d+)$/.exec(retried.headers.location as string)![1]);
    expect(copy).not.toBe(test.id);
    expect((await kiln.api('GET', `/projects/${w.project.id}/jobs/${copy}`, { token: w.developer.token })).body).toMatchObject({ name: XSS_JOB, status: 'pending' });
    // Retrying the old job again is the API's refusal.
    expect((await developer.post(`${base}/-/jobs/${test.id}/retry`, {}, { csrfFrom: `${base}/-/jobs/${test.id}` })).statusCode).toBe(403);
    const old = await developer.get(`${base}/-/jobs/${test.id}`);
    expect(old.body).toContain('>retried</span>');
  });

  it('plays a manual job from its page', async () => {
    const made = await kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token: w.developer.token, body: { ref: 'main' } });
    expect(made.status).toBe(201);
    const jobs = (await kiln.api('GET', `/projects/${w.project.id}/pipelines/${made.body.id}/jobs`, { token: w.developer.token })).body as any[];
    const deploy = jobs.find((job) => job.name === 'deploy');
    await kiln.deps.db.updateTable('ci_builds').set({ status: 'manual' }).where('id', '=', deploy.id).execute();
    const developer = await signedIn(w.developer);
    expect((await developer.get(`${base}/-/jobs/${deploy.id}`)).body).toContain(`action="${base}/-/jobs/${deploy.id}/play"`);
    const played = await developer.post(`${base}/-/jobs/${deploy.id}/play`, {}, { csrfFrom: `${base}/-/jobs/${deploy.id}` });
    expect(played.statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${w.project.id}/jobs/${deploy.id}`, { token: w.developer.token })).body.status).toBe('pending');
  });
});

describe('Delete pipeline', () => {
  it('is offered to Owners only and deletes through the API service', async () => {
    const made = await kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token: w.developer.token, body: { ref: 'main' } });
    expect(made.status).toBe(201);
    const url = `${base}/-/pipelines/${made.body.id}`;
    const developer = await signedIn(w.developer);
    expect((await developer.get(url)).body).not.toContain(`action="${url}/delete"`);
    expect((await developer.post(`${url}/delete`, {}, { csrfFrom: url })).statusCode).toBe(403);
    const owner = await signedIn(w.owner);
    expect((await owner.get(url)).body).toContain(`action="${url}/delete"`);
    const deleted = await owner.post(`${url}/delete`, {}, { csrfFrom: url });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`${base}/-/pipelines`);
    expect((await kiln.api('GET', `/projects/${w.project.id}/pipelines/${made.body.id}`, { token: w.owner.token })).status).toBe(404);
    expect((await owner.get(url)).statusCode).toBe(404);
  });
});

describe('Run pipeline', () => {
  it('runs a pipeline for a ref with variables (source web)', async () => {
    const developer = await signedIn(w.developer);
    const form = await developer.get(`${base}/-/pipelines/new`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<option value="main" selected>main</option>');
    const made = await developer.post(`${base}/-/pipelines`, { ref: 'main', variable_key: 'GREETING', variable_value: 'hello', variable_type: 'env_var' }, { csrfFrom: `${base}/-/pipelines/new` });
    expect(made.statusCode).toBe(303);
    const id = Number(/\/-\/pipelines\/(\d+)$/.exec(made.headers.location as string)![1]);
    const pipeline = await kiln.api('GET', `/projects/${w.project.id}/pipelines/${id}`, { token: w.developer.token });
    expect(pipeline.body).toMatchObject({ source: 'web', ref: 'main', user: { username: w.developer.username } });
    const variables = await kiln.api('GET', `/projects/${w.project.id}/pipelines/${id}/variables`, { token: w.developer.token });
    expect(variables.body).toEqual([{ variable_type: 'env_var', key: 'GREETING', value: 'hello' }]);
  });

  it("shows GitLab's error for a ref that does not exist, escaped", async () => {
    const developer = await signedIn(w.developer);
    const refused = await developer.post(`${base}/-/pipelines`, { ref: XSS_REF }, { csrfFrom: `${base}/-/pipelines/new` });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Reference not found');
    expect(refused.body).toContain('&lt;svg/onload=alert(1)&gt;');
    expect(refused.body).not.toContain('<svg/onload');
  });

  it('escapes a hostile branch name on the list, the pipeline and the job pages', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: XSS_REF, start_branch: 'main', commit_message: 'hostile', actions: [create('x.txt')] });
    await kiln.worker.drain();
    const pipelines = (await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.developer.token, query: { ref: XSS_REF } })).body as any[];
    expect(pipelines).toHaveLength(1);
    const jobs = (await kiln.api('GET', `/projects/${w.project.id}/pipelines/${pipelines[0].id}/jobs`, { token: w.developer.token })).body as any[];
    const web = await signedIn(w.developer);
    for (const url of [`${base}/-/pipelines`, `${base}/-/pipelines/${pipelines[0].id}`, `${base}/-/jobs/${jobs[0].id}`, `${base}/-/jobs`]) {
      const response = await web.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('&lt;svg/onload=alert(1)&gt;');
      expect(response.body, url).not.toContain('<svg/onload');
    }
  });
});

describe('GET /:project/-/jobs', () => {
  it("lists the project's jobs with status tabs", async () => {
    const web = await signedIn(w.reporter);
    const all = await web.get(`${base}/-/jobs`);
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain(`href="${base}/-/jobs/${buildJob.id}"`);
    const failed = await web.get(`${base}/-/jobs?scope=failed`);
    expect(failed.body).not.toContain(`href="${base}/-/jobs/${buildJob.id}"`);
  });
});
