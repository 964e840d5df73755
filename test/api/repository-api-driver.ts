// Shared steps of the repository API suites: a world of users and a project, and commits made
// through POST /projects/:id/repository/commits.
import { expect } from 'vitest';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

export interface RepositoryWorld {
  owner: TestUser;
  maintainer: TestUser;
  developer: TestUser;
  reporter: TestUser;
  guest: TestUser;
  stranger: TestUser;
  group: any;
  project: any;
}

let worlds = 0;

/** A group owned by `owner`, a private project in it, and one member per role. */
export async function repositoryWorld(kiln: TestKiln, options: { visibility?: string } = {}): Promise<RepositoryWorld> {
  worlds += 1;
  const suffix = `${worlds}`;
  const owner = await kiln.createUser(`owner${suffix}`);
  const maintainer = await kiln.createUser(`maintainer${suffix}`);
  const developer = await kiln.createUser(`developer${suffix}`);
  const reporter = await kiln.createUser(`reporter${suffix}`);
  const guest = await kiln.createUser(`guest${suffix}`);
  const stranger = await kiln.createUser(`stranger${suffix}`);
  const group = await kiln.createGroup(owner, `team${suffix}`, { visibility: options.visibility ?? 'private' });
  const project = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: options.visibility ?? 'private' });
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  return { owner, maintainer, developer, reporter, guest, stranger, group, project };
}

export interface Action {
  action: string;
  file_path: string;
  content?: string;
  [key: string]: unknown;
}

/** A commit through the API that must succeed; its CommitDetail. */
export async function commit(kiln: TestKiln, token: string, projectId: number, body: { branch: string; commit_message?: string; actions: Action[]; [key: string]: unknown }): Promise<any> {
  const response = await kiln.api('POST', `/projects/${projectId}/repository/commits`, { token, body: { commit_message: 'change', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export const create = (file_path: string, content = `${file_path}\n`): Action => ({ action: 'create', file_path, content });
export const update = (file_path: string, content: string): Action => ({ action: 'update', file_path, content });
