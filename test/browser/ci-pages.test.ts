// The CI pages in Chromium: a pipeline made by a push, its jobs taken and finished by a runner over
// GitLab's runner protocol; the pipelines list, the pipeline's stages and the job's log with colours
// (classes, styled) and a collapsible section, the running job's log growing by htmx polling until the
// job passes; Settings › CI/CD (a masked variable added and edited), a pipeline schedule made and
// opened for editing, a job's artifacts browsed, and the CI lint; at 1280 and 390 px, light and dark, no serious or
// critical axe-core violations and no sideways scrolling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { zipSync } from 'fflate';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let project: any;
let pipelineId: number;
let buildJob: { id: number; token: string };
let testJob: { id: number; token: string };
/** Made by the settings test: the masked variable's edit page and a schedule's. */
const edits: string[] = [];

const ESC = '\u001b';
const CONFIG = `
stages: [build, test, deploy]
build:
  stage: build
  script: make
  artifacts: { paths: [out/reports/], expose_as: 'Test reports' }
test-with-a-rather-long-job-name-that-has-to-wrap-on-a-phone:
  stage: test
  script: make test
  needs: [build]
deploy:
  stage: deploy
  script: ./deploy
  when: manual
`;
const BUILD_LOG = [
  `section_start:1700000000:prepare_executor\r${ESC}[0K${ESC}[36;1mPreparing the "shell" executor${ESC}[0;m`,
  'Using Shell executor...',
  `section_end:1700000003:prepare_executor\r${ESC}[0K`,
  `${ESC}[32;1m$ make${ESC}[0;m`,
  `${ESC}[31mwarning: something red${ESC}[0m`,
  `${ESC}[32;1mJob succeeded${ESC}[0;m`,
  '',
].join('\n');

async function runner(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${kiln.url}/api/v4${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : null };
}

let runnerToken: string;

/** The next job for the runner: asked again until the push job has queued one (the answer is at once: no long polling here). */
async function nextJob(): Promise<{ id: number; token: string }> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const answer = await runner('POST', '/jobs/request', { token: runnerToken, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });
    if (answer.status === 201) return { id: answer.body.id, token: answer.body.token };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no job was queued');
}

let traced = new Map<number, number>();
async function appendLog(job: { id: number; token: string }, text: string) {
  const start = traced.get(job.id) ?? 0;
  const bytes = Buffer.from(text);
  const response = await fetch(`${kiln.url}/api/v4/jobs/${job.id}/trace`, { method: 'PATCH', headers: { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': `${start}-${start + bytes.length - 1}` }, body: bytes });
  expect(response.status).toBe(202);
  traced.set(job.id, start + bytes.length);
}

beforeAll(async () => {
  kiln = await startKilnProcess({ env: { KILN_CI_LONG_POLL_MS: '0' } });
  browser = await launchBrowser();
  traced = new Map();
  project = await apiCall(kiln, 'POST', '/projects', { name: 'built', path: 'built' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Add CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG }] });
  const registration = await apiCall(kiln, 'POST', `/projects/${project.id}/runners/reset_registration_token`);
  runnerToken = (await runner('POST', '/runners', { token: registration.token, description: 'browser runner' })).body.token;
  buildJob = await nextJob();
  await appendLog(buildJob, BUILD_LOG);
  const form = new FormData();
  form.append('file', new Blob([zipSync({ 'out/app.bin': new TextEncoder().encode('binary'), 'out/reports/a-rather-long-report-name-that-has-to-wrap-on-a-phone.html': new TextEncoder().encode('<p>report</p>') })]), 'artifacts.zip');
  const uploaded = await fetch(`${kiln.url}/api/v4/jobs/${buildJob.id}/artifacts?artifact_type=archive&artifact_format=zip`, { method: 'POST', headers: { 'job-token': buildJob.token }, body: form });
  expect(uploaded.status).toBe(201);
  expect((await runner('PUT', `/jobs/${buildJob.id}`, { token: buildJob.token, state: 'success' })).status).toBe(200);
  testJob = await nextJob();
  await appendLog(testJob, `${ESC}[32;1m$ make test${ESC}[0;m\n`);
  pipelineId = (await apiCall(kiln, 'GET', `/projects/${project.id}/pipelines`))[0].id;
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const signedIn = (options: Parameters<Browser['newContext']>[0]) => signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, options);

describe('CI pages at 1280 px, light', () => {
  it('shows the pipeline, its stages, and a job log with colours and a section', async () => {
    const { context, page } = await signedIn({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto(`${kiln.url}/root/built`);
    await Promise.all([page.waitForNavigation(), page.click('nav.sidebar a:has-text("Pipelines")')]);
    expect(await page.getAttribute(`tr[data-pipeline="${pipelineId}"] .ci-badge`, 'data-ci-status')).toBe('running');
    expect(await page.locator(`tr[data-pipeline="${pipelineId}"] td.stages .ci-icon`).count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);

    await Promise.all([page.waitForNavigation(), page.click(`tr[data-pipeline="${pipelineId}"] a:has-text("#${pipelineId}")`)]);
    expect(await page.textContent('#pipeline-graph')).toContain('Needs: build');
    expect(await seriousViolations(page)).toEqual([]);
    // Grouped by job dependencies: the drawn graph, a line from build to the job that needs it.
    await Promise.all([page.waitForNavigation(), page.click('#group-by a:has-text("Job dependencies")')]);
    expect(await page.locator('#needs-graph .needs-edge[data-from="build"]').count()).toBe(1);
    expect(await page.getAttribute('#needs-graph .needs-node[data-job="build"]', 'aria-label')).toMatch(/^build: \w+, needs no other job$/);
    expect(await page.getAttribute('#exposed-artifacts a.exposed-artifact', 'href')).toBe(`/root/built/-/jobs/${buildJob.id}/artifacts/browse/out/reports`);
    expect(await seriousViolations(page)).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('#group-by a:has-text("Stage")')]);

    await Promise.all([page.waitForNavigation(), page.click('.pipeline-job[data-job="build"] a:has-text("build")')]);
    const green = await page.locator('#job-log .ansi-green-fg').first();
    expect(await green.textContent()).toBe('$ make');
    expect(await green.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(26, 127, 55)');
    expect(await green.evaluate((node) => getComputedStyle(node).fontWeight)).toBe('700');
    const section = page.locator('details.log-section[data-section="prepare_executor"]');
    const isOpen = () => section.evaluate((node) => (node as HTMLDetailsElement).open);
    expect(await isOpen()).toBe(true);
    expect(await section.textContent()).toContain('Using Shell executor...');
    await page.click('details.log-section > summary');
    expect(await isOpen()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    // Its artifacts, browsed a directory at a time.
    await Promise.all([page.waitForNavigation(), page.click('#job-artifacts a:has-text("Browse")')]);
    await Promise.all([page.waitForNavigation(), page.click('#artifact-files a:has-text("out/")')]);
    expect(await page.textContent('#artifact-files')).toContain('app.bin');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('grows a running job log by polling and shows the job passed', async () => {
    const { context, page } = await signedIn({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto(`${kiln.url}/root/built/-/jobs/${testJob.id}`);
    expect(await page.getAttribute('#job-panel', 'data-status')).toBe('running');
    await appendLog(testJob, `${ESC}[33mok 1 - the tests pass${ESC}[0m\n`);
    await page.waitForSelector('#job-log .ansi-yellow-fg:has-text("ok 1 - the tests pass")');
    // A section opened by one poll's lines grows with the next poll's, and gets its duration when it ends.
    await appendLog(testJob, `section_start:1700000100:coverage\r${ESC}[0KCoverage\n${ESC}[36mlines 91%\n`);
    await page.waitForSelector('details.log-section[data-section="coverage"] .ansi-cyan-fg:has-text("lines 91%")');
    await appendLog(testJob, `branches 80%\nsection_end:1700000107:coverage\r${ESC}[0K\n${ESC}[0mdone\n`);
    await page.waitForSelector('details.log-section[data-section="coverage"] .log-duration:has-text("00:07")');
    expect(await page.locator('details.log-section[data-section="coverage"] .ansi-cyan-fg:has-text("branches 80%")').count()).toBe(1);
    expect(await page.locator('#job-log').evaluate((node) => node.textContent)).toBe('$ make test\nok 1 - the tests pass\nCoverage00:07lines 91%\nbranches 80%\ndone\n');
    expect((await runner('PUT', `/jobs/${testJob.id}`, { token: testJob.token, state: 'success' })).status).toBe(200);
    await page.waitForSelector('#job-panel[data-status="success"]');
    expect(await page.locator('#job-panel[hx-get]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('CI/CD settings and CI lint at 1280 px, light', () => {
  it('adds a masked variable, makes a trigger token, lints a configuration', async () => {
    const { context, page } = await signedIn({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto(`${kiln.url}/root/built`);
    await Promise.all([page.waitForNavigation(), page.click('nav.sidebar a:has-text("CI/CD")')]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#variable-key', 'DEPLOY_TOKEN');
    await page.fill('#variable-value', 'a-long-secret-value');
    await page.check('#variable-masked');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add variable")')]);
    expect(await page.textContent('#ci-variables')).toContain('DEPLOY_TOKEN');
    expect(await page.textContent('body')).not.toContain('a-long-secret-value');
    // Edit it: the masked value is not in the form; an empty value keeps it.
    await Promise.all([page.waitForNavigation(), page.click('tr[data-variable="DEPLOY_TOKEN"] a:has-text("Edit")')]);
    edits.push(new URL(page.url()).pathname);
    expect(await page.inputValue('#variable-value')).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#variable-scope', 'production');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Update variable")')]);
    expect(await page.textContent('tr[data-variable="DEPLOY_TOKEN"]')).toContain('production');
    const stored = await apiCall(kiln, 'GET', `/projects/${project.id}/variables/DEPLOY_TOKEN`);
    expect(stored).toMatchObject({ value: 'a-long-secret-value', environment_scope: 'production', masked: true });
    // A pipeline schedule with a variable, from the schedules page.
    await page.goto(`${kiln.url}/root/built/-/pipeline_schedules`);
    await Promise.all([page.waitForNavigation(), page.click('#new-schedule')]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#schedule-description', 'Nightly build');
    await page.fill('#schedule-cron', '0 4 * * *');
    await page.fill('#schedule-timezone', 'Europe/Berlin');
    await page.fill('#new-variable-key', 'MODE');
    await page.fill('#new-variable-value', 'full');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Create pipeline schedule")')]);
    expect(await page.textContent('#ci-schedules')).toContain('Nightly build');
    expect(await seriousViolations(page)).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('#ci-schedules a:has-text("Edit")')]);
    edits.push(new URL(page.url()).pathname);
    expect(await page.inputValue('#schedule-cron')).toBe('0 4 * * *');
    await page.goto(`${kiln.url}/root/built/-/settings/ci_cd`);
    await page.fill('#trigger-description', 'nightly');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Create pipeline trigger token")')]);
    expect(await page.inputValue('#trigger-token')).toMatch(/^glptt-/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${kiln.url}/root/built/-/ci/lint`);
    await page.fill('#ci-lint-content', CONFIG);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Validate")')]);
    expect(await page.getAttribute('#ci-lint-result', 'data-valid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('CI pages at 390 px, dark', () => {
  it('the list, the pipeline, a job and Run pipeline: no sideways scrolling, no serious axe violations', async () => {
    const { context, page } = await signedIn({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    for (const path of ['/-/pipelines', `/-/pipelines/${pipelineId}`, `/-/pipelines/${pipelineId}?group_by=dependencies`, `/-/pipelines/${pipelineId}/builds`, `/-/jobs/${buildJob.id}`, `/-/jobs/${testJob.id}`, '/-/jobs', '/-/pipelines/new', '/-/settings/ci_cd', '/-/ci/lint', '/-/pipeline_schedules', '/-/pipeline_schedules/new', `/-/jobs/${buildJob.id}/artifacts/browse`, `/-/jobs/${buildJob.id}/artifacts/browse/out/reports`, ...edits]) {
      await page.goto(path.startsWith('/root/') ? `${kiln.url}${path}` : `${kiln.url}/root/built${path}`);
      expect(await overflowsSideways(page), path).toBe(false);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await page.goto(`${kiln.url}/root/built/-/jobs/${buildJob.id}`);
    expect(await page.locator('#job-log .ansi-green-fg').first().evaluate((node) => getComputedStyle(node).color)).toBe('rgb(126, 231, 135)');
    // Play the manual job from the pipeline page.
    await page.goto(`${kiln.url}/root/built/-/pipelines/${pipelineId}`);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Run deploy")')]);
    expect(await page.getAttribute('#job-panel', 'data-status')).toBe('pending');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('CI pages at 1280 px dark and 390 px light', () => {
  it('no serious axe violations and no sideways scrolling in the other theme at each width', async () => {
    for (const [width, colorScheme] of [[1280, 'dark'], [390, 'light']] as const) {
      const { context, page } = await signedIn({ viewport: { width, height: 900 }, colorScheme });
      for (const path of ['/-/pipelines', `/-/pipelines/${pipelineId}`, `/-/pipelines/${pipelineId}?group_by=dependencies`, `/-/jobs/${buildJob.id}`, '/-/settings/ci_cd', '/-/ci/lint', '/-/pipeline_schedules', `/-/jobs/${buildJob.id}/artifacts/browse/out`, ...edits]) {
        await page.goto(path.startsWith('/root/') ? `${kiln.url}${path}` : `${kiln.url}/root/built${path}`);
        expect(await overflowsSideways(page), `${width} ${path}`).toBe(false);
        expect(await seriousViolations(page), `${width} ${path}`).toEqual([]);
      }
      await context.close();
    }
  });
});
