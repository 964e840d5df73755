// For the tests that run real pipelines with a runner: a Kiln on loopback with a maintainer's
// project cloned and a project runner's token; pushing a commit from the clone; waiting (bounded)
// for its pipeline to end and reading its jobs by name and their logs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from './kiln.js';
import { gitCommands, listenOnLoopback } from './git.js';

export interface PipelineProject {
  kiln: TestKiln;
  /** The server's loopback URL (the runner's `url` and `cloneUrl`). */
  base: string;
  work: string;
  /** The maintainer's clone of the project. */
  dir: string;
  maintainer: TestUser;
  project: any;
  runner: { id: number; token: string };
  git: (args: string[], cwd?: string) => Promise<string>;
}

/** A Kiln on loopback, user `maintainer` with project `app` cloned into `<work>/clone`, and a project runner made with the API. */
export async function pipelineProject(prefix: string, runnerAttributes: Record<string, unknown> = {}): Promise<PipelineProject> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const git = gitCommands(() => work).ok;
  const kiln = await testKiln();
  const base = await listenOnLoopback(kiln.app);
  const maintainer = await kiln.createUser('maintainer');
  const project = await kiln.createProject(maintainer, 'app');
  const dir = join(work, 'clone');
  await git(['clone', '-q', `${base.replace('http://', `http://maintainer:${maintainer.token}@`)}/maintainer/app.git`, dir]);
  const runner = await kiln.apiAs(maintainer, 'POST', '/user/runners', { runner_type: 'project_type', project_id: project.id, ...runnerAttributes });
  return { kiln, base, work, dir, maintainer, project, runner: { id: runner.id, token: runner.token }, git };
}

export async function closePipelineProject(setup: PipelineProject | undefined, runner: { stop(): Promise<void> } | undefined): Promise<void> {
  await runner?.stop();
  await setup?.kiln.close();
  if (setup) rmSync(setup.work, { recursive: true, force: true });
}

/** The environment a test runner's jobs start from. */
export const runnerEnv = (setup: PipelineProject) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: setup.work });

/** Writes `files` in the clone (then `prepare`), commits, pushes to main and drains the worker; the new commit's sha. */
export async function pushFiles(setup: PipelineProject, message: string, files: Record<string, string>, prepare?: () => void): Promise<string> {
  const { dir, git } = setup;
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  prepare?.();
  await git(['add', '.'], dir);
  await git(['commit', '-q', '-m', message], dir);
  await git(['push', '-q', 'origin', 'HEAD:main'], dir);
  await setup.kiln.worker.drain();
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

/** Polls the API (bounded) until the pipeline of `sha` has ended; its jobs by name. */
export async function finishedPipeline(setup: PipelineProject, sha: string): Promise<{ pipeline: any; jobs: Record<string, any> }> {
  const { kiln, maintainer: user, project } = setup;
  for (let attempt = 0; attempt < 900; attempt += 1) {
    const [pipeline] = await kiln.apiAs(user, 'GET', `/projects/${project.id}/pipelines?sha=${sha}`);
    if (pipeline && ['success', 'failed', 'canceled'].includes(pipeline.status)) {
      const jobs = await kiln.apiAs(user, 'GET', `/projects/${project.id}/pipelines/${pipeline.id}/jobs`);
      return { pipeline, jobs: Object.fromEntries(jobs.map((job: any) => [job.name, job])) };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pipelines = await kiln.apiAs(user, 'GET', `/projects/${project.id}/pipelines`);
  const jobs = pipelines[0] ? await kiln.apiAs(user, 'GET', `/projects/${project.id}/pipelines/${pipelines[0].id}/jobs`) : [];
  throw new Error(`the pipeline of ${sha} did not end: ${JSON.stringify(pipelines.map((p: any) => [p.sha, p.status]))} ${JSON.stringify(jobs.map((j: any) => [j.name, j.status, j.failure_reason]))}`);
}

/** A job's log as the maintainer reads it. */
export const jobTrace = async (setup: PipelineProject, jobId: number) =>
  (await setup.kiln.api('GET', `/projects/${setup.project.id}/jobs/${jobId}/trace`, { token: setup.maintainer.token })).body as string;
