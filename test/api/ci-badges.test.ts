// A project's CI badges (issue 39): pipeline.svg with the ref's newest pipeline status (GitLab's
// texts and colours, `unknown` without one, ignore_skipped, key_text/key_width), coverage.svg with the
// newest successful pipeline's coverage; SVG with GitLab's no-cache headers; the project's visibility.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { commit, create } from './repository-api-driver.js';

let kiln: TestKiln;
let owner: TestUser;
let stranger: TestUser;
let open: any;
let hidden: any;

async function pipelineOf(project: any, message: string, status: 'success' | 'failed' | 'skipped', coverage: number | null = null) {
  const made = await commit(kiln, owner.token, project.id, { branch: 'main', commit_message: message, actions: [create(`${message.replace(/\W/g, '-')}.txt`, 'x\n')] });
  await kiln.worker.drain();
  const pipeline = await kiln.deps.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', project.id).where('sha', '=', made.id).executeTakeFirstOrThrow();
  // The runner's part is played by the rows here: this file is about what the badges read.
  await kiln.deps.db.updateTable('ci_builds').set({ status: status === 'skipped' ? 'skipped' : status, coverage }).where('commit_id', '=', pipeline.id).execute();
  await kiln.deps.db.updateTable('ci_pipelines').set({ status }).where('id', '=', pipeline.id).execute();
  return Number(pipeline.id);
}

const badge = (project: any, path: string) => kiln.request('GET', `/${project.path_with_namespace}/${path}`);
const texts = (svg: string) => [...svg.matchAll(/<text x="[\d.]+" y="14">([^<]*)<\/text>/g)].map((match) => match[1]);

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  stranger = await kiln.createUser('stranger');
  open = await kiln.createProject(owner, 'open', { visibility: 'public' });
  hidden = await kiln.createProject(owner, 'hidden', { visibility: 'private' });
  for (const project of [open, hidden]) {
    await commit(kiln, owner.token, project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'test:\n  script: ./test\n  coverage: /(\\d+)%/\n')] });
  }
  await kiln.worker.drain();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

describe('pipeline.svg', () => {
  it('answers an SVG never cached; the skipped pipeline of [skip ci] first, unknown for a ref without pipelines', async () => {
    const response = await badge(open, 'badges/main/pipeline.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('max-age=0, private, must-revalidate, no-store');
    expect(response.headers.pragma).toBe('no-cache');
    expect(response.headers.expires).toBe('Fri, 01 Jan 1990 00:00:00 GMT');
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="116" height="20">/);
    expect(texts(response.body)).toEqual(['pipeline', 'skipped']);
    expect(texts((await badge(open, 'badges/nowhere/pipeline.svg')).body)).toEqual(['pipeline', 'unknown']);
    expect(response.body).toContain('fill="#9f9f9f"');
  });

  it('shows passed in green, failed in red, the newest pipeline of the ref; ignore_skipped looks past skipped ones', async () => {
    await pipelineOf(open, 'green', 'success');
    const passed = await badge(open, 'badges/main/pipeline.svg');
    expect(texts(passed.body)).toEqual(['pipeline', 'passed']);
    expect(passed.body).toContain('fill="#4c1"');
    await pipelineOf(open, 'red', 'failed');
    const failed = await badge(open, '-/badges/main/pipeline.svg');
    expect(texts(failed.body)).toEqual(['pipeline', 'failed']);
    expect(failed.body).toContain('fill="#e05d44"');
    await pipelineOf(open, 'quiet', 'skipped');
    expect(texts((await badge(open, 'badges/main/pipeline.svg')).body)).toEqual(['pipeline', 'skipped']);
    expect(texts((await badge(open, 'badges/main/pipeline.svg?ignore_skipped=true')).body)).toEqual(['pipeline', 'failed']);
  });

  it('takes key_text (at most 64 characters, escaped) and key_width (1 to 512); other values keep the defaults', async () => {
    const custom = await badge(open, 'badges/main/pipeline.svg?key_text=<build>&key_width=100');
    expect(custom.body).toContain('width="154"');
    expect(texts(custom.body)[0]).toBe('&#60;build&#62;');
    const ignored = await badge(open, `badges/main/pipeline.svg?key_text=${'x'.repeat(65)}&key_width=9999`);
    expect(ignored.statusCode).toBe(200);
    expect(ignored.body).toContain('width="116"');
    expect(texts(ignored.body)[0]).toBe('pipeline');
    expect((await badge(open, 'badges/main/pipeline.svg?key_width=abc&key_text[]=a&key_text[]=b')).statusCode).toBe(200);
  });

  it('follows the project\'s visibility: anonymous visitors are asked to sign in, strangers get a 404, members the badge', async () => {
    const anonymous = await badge(hidden, 'badges/main/pipeline.svg');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/users\/sign_in/);
    const web = new WebSession(kiln);
    await web.signIn(stranger.username, stranger.password);
    expect((await web.get(`/${hidden.path_with_namespace}/badges/main/pipeline.svg`)).statusCode).toBe(404);
    const member = new WebSession(kiln);
    await member.signIn(owner.username, owner.password);
    const shown = await member.get(`/${hidden.path_with_namespace}/badges/main/pipeline.svg`);
    expect(shown.statusCode).toBe(200);
    expect(texts(shown.body)).toEqual(['pipeline', 'skipped']);
    expect((await kiln.request('GET', '/nobody/nothing/badges/main/pipeline.svg')).statusCode).not.toBe(200);
  });
});

describe('hostile refs', () => {
  it('a NUL, broken percent-encoding, an invalid UTF-8 byte or a very long ref is unknown or refused, never a 500', async () => {
    for (const ref of ['%00', 'a%00b', '%E0%A4%A', '%ff', '..%2F..%2Fetc', 'x'.repeat(10_000)]) {
      for (const kind of ['pipeline', 'coverage']) {
        const response = await badge(open, `badges/${ref}/${kind}.svg`);
        expect(response.statusCode, `${kind} ${ref.slice(0, 20)}`).toBeLessThan(500);
        if (response.statusCode === 200) expect(texts(response.body)[1]).toBe('unknown');
      }
    }
  });
});

describe('coverage.svg', () => {
  it('shows the newest successful pipeline\'s coverage with two decimals (or of one job), unknown without one', async () => {
    // The newest successful pipeline has no coverage yet.
    expect(texts((await badge(open, 'badges/main/coverage.svg')).body)).toEqual(['coverage', 'unknown']);
    await pipelineOf(open, 'covered', 'success', 91.5);
    const covered = await badge(open, 'badges/main/coverage.svg');
    expect(covered.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(texts(covered.body)).toEqual(['coverage', '91.50%']);
    expect(covered.body).toContain('fill="#a3c51c"');
    // A failed pipeline after it does not count.
    await pipelineOf(open, 'uncovered', 'failed', 10);
    expect(texts((await badge(open, 'badges/main/coverage.svg?job=test')).body)).toEqual(['coverage', '91.50%']);
    expect(texts((await badge(open, 'badges/main/coverage.svg?job=other')).body)).toEqual(['coverage', 'unknown']);
  });
});
