// Pipeline e-mail (issue 39) against a real SMTP server (aiosmtpd, test/helpers/smtp-server.ts): a
// pipeline that fails mails its user `failed_pipeline`, the next green one on that ref
// `fixed_pipeline`, later green ones `success_pipeline` only to a custom level that asked; nobody but
// the pipeline's user is mailed, and the levels decide as GitLab's NotificationRecipient does.
import { afterAll, beforeAll, beforeEach, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, header, mailReader, type ReceivedMail } from '../helpers/smtp-server.js';
import { commit, create, update } from './repository-api-driver.js';
import { finishJob } from '../../src/ci/jobs/runner-updates.js';

const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let delivered: () => Promise<ReceivedMail[]>;
let project: any;
let owner: TestUser;
let pusher: TestUser;
let watcher: TestUser;
let pushes = 0;
const DEVELOPER = 30;
const MAINTAINER = 40;


/** A push by `pusher` whose one job then ends as `outcome`, as a runner would finish it; the pipeline. */
async function pipelineThat(outcome: 'success' | 'failed', by: TestUser = pusher) {
  pushes += 1;
  const made = await commit(kiln, by.token, project.id, { branch: 'main', commit_message: `change ${pushes}`, actions: [update('notes.txt', `change ${pushes}\n`)] });
  await kiln.worker.drain();
  const pipeline = await kiln.deps.db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', project.id).where('sha', '=', made.id).executeTakeFirstOrThrow();
  const build = await kiln.deps.db.updateTable('ci_builds').set({ status: 'running', started_at: kiln.clock.now() }).where('commit_id', '=', pipeline.id).returningAll().executeTakeFirstOrThrow();
  expect(await finishJob(kiln.deps, build, outcome, outcome === 'failed' ? 'script_failure' : undefined)).toBe(true);
  return { pipeline, sha: made.id as string, buildId: Number(build.id) };
}

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  delivered = mailReader(kiln, smtp);
  owner = await kiln.createUser('owner');
  pusher = await kiln.createUser('pusher');
  watcher = await kiln.createUser('watcher');
  project = await kiln.createProject(owner, 'app');
  // A Maintainer: main is protected (pushed by Maintainers) by default.
  await kiln.addMember(owner, 'projects', project.id, pusher, MAINTAINER);
  await kiln.addMember(owner, 'projects', project.id, watcher, DEVELOPER);
  await kiln.apiAs(watcher, 'PUT', `/projects/${project.id}/notification_settings`, { level: 'watch' });
  await commit(kiln, owner.token, project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'test:\n  script: ./test\n'), create('notes.txt', 'start\n')] });
  await kiln.worker.drain();
  await delivered();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

beforeEach(async () => {
  if (SMTP_SERVER_AVAILABLE) await delivered();
});

describe('pipeline e-mail', () => {
  it('a failed pipeline mails its user (and no watcher) with the failed jobs', async () => {
    const { pipeline, sha, buildId } = await pipelineThat('failed');
    const mails = await delivered();
    expect(mails.map((mail) => mail.rcptTos).flat()).toEqual(['pusher@example.com']);
    const [mail] = mails;
    expect(header(mail, 'Subject')).toBe(`app | Failed pipeline for main | ${sha.slice(0, 8)}`);
    expect(header(mail, 'X-GitLab-Pipeline-Id')).toBe(String(pipeline.id));
    expect(header(mail, 'X-GitLab-Pipeline-Ref')).toBe('main');
    expect(header(mail, 'X-GitLab-Pipeline-Status')).toBe('failed');
    expect(header(mail, 'X-GitLab-Project-Path')).toBe(project.path_with_namespace);
    expect(mail.text).toContain(`Pipeline #${pipeline.id} has failed!`);
    expect(mail.text).toContain(`test (test): ${kiln.config.baseUrl}/${project.path_with_namespace}/-/jobs/${buildId}`);
    expect(mail.html).toContain(`/-/pipelines/${pipeline.id}`);
  }, 120_000);

  it('the next green pipeline of the ref is fixed_pipeline; the one after it mails nobody at the participating level', async () => {
    const { pipeline, sha } = await pipelineThat('success');
    const mails = await delivered();
    expect(mails.map((mail) => mail.rcptTos).flat()).toEqual(['pusher@example.com']);
    expect(header(mails[0], 'Subject')).toBe(`app | Fixed pipeline for main | ${sha.slice(0, 8)}`);
    expect(header(mails[0], 'X-GitLab-Pipeline-Status')).toBe('fixed');
    expect(mails[0].text).toContain(`Pipeline has been fixed and #${pipeline.id} has passed!`);
    await pipelineThat('success');
    expect(await delivered()).toEqual([]);
  }, 120_000);

  it('a custom level sends what it switched on; failed and fixed count as on until switched off', async () => {
    await kiln.apiAs(pusher, 'PUT', `/projects/${project.id}/notification_settings`, { level: 'custom', success_pipeline: true });
    const { sha } = await pipelineThat('success');
    const mails = await delivered();
    expect(mails.map((mail) => header(mail, 'Subject'))).toEqual([`app | Successful pipeline for main | ${sha.slice(0, 8)}`]);
    expect(header(mails[0], 'X-GitLab-Pipeline-Status')).toBe('success');
    await pipelineThat('failed');
    expect((await delivered()).map((mail) => header(mail, 'X-GitLab-Pipeline-Status'))).toEqual(['failed']);
    await kiln.apiAs(pusher, 'PUT', `/projects/${project.id}/notification_settings`, { level: 'custom', failed_pipeline: false, fixed_pipeline: false });
    await pipelineThat('failed');
    await pipelineThat('success');
    expect(await delivered()).toEqual([]);
  }, 120_000);

  it('the mention and disabled levels send none; nor does a project with e-mail off', async () => {
    await kiln.apiAs(pusher, 'PUT', `/projects/${project.id}/notification_settings`, { level: 'mention' });
    await pipelineThat('failed');
    expect(await delivered()).toEqual([]);
    await kiln.apiAs(pusher, 'PUT', `/projects/${project.id}/notification_settings`, { level: 'global' });
    await kiln.apiAs(pusher, 'PUT', '/notification_settings', { level: 'disabled' });
    await pipelineThat('failed');
    expect(await delivered()).toEqual([]);
    await kiln.apiAs(pusher, 'PUT', '/notification_settings', { level: 'participating' });
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { emails_enabled: false });
    await pipelineThat('failed');
    expect(await delivered()).toEqual([]);
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { emails_enabled: true });
    await pipelineThat('failed');
    expect((await delivered()).map((mail) => mail.rcptTos).flat()).toEqual(['pusher@example.com']);
  }, 120_000);
});
