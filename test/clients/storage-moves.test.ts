// python-gitlab 3.12 (raw http_* helpers: it has no manager for these) and @gitbeaker/rest
// GroupRepositoryStorageMoves against a real `kiln serve` with two shards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';
import { waitFor } from './helpers/wait.js';

let kiln: KilnProcess;
let shards: string;
const groups: any[] = [];

async function allFinished(): Promise<boolean> {
  const moves = await apiCall(kiln, 'GET', '/group_repository_storage_moves?per_page=100');
  return moves.every((move: any) => move.state === 'finished');
}

beforeAll(async () => {
  shards = mkdtempSync(join(tmpdir(), 'kiln-client-shards-'));
  kiln = await startKilnProcess({
    env: { KILN_STORAGES: JSON.stringify({ default: { path: join(shards, 'default'), weight: 100 }, storage2: { path: join(shards, 'storage2'), weight: 0 } }) },
  });
  for (const path of ['py-one', 'py-two', 'py-three']) groups.push(await apiCall(kiln, 'POST', '/groups', { name: path, path }));
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(shards, { recursive: true, force: true });
});

describe('python-gitlab 3.12', () => {
  it('http_post, http_get and http_list drive all six endpoints', async () => {
    const script = `
import gitlab, json, os, time
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
gid = int(os.environ["GID"])
out = {}
created = gl.http_post(f"/groups/{gid}/repository_storage_moves", post_data={"destination_storage_name": "storage2"})
out["created"] = created
for _ in range(300):
    one = gl.http_get(f"/group_repository_storage_moves/{created['id']}")
    if one["state"] == "finished": break
    time.sleep(0.1)
out["one"] = one
out["group_one"] = gl.http_get(f"/groups/{gid}/repository_storage_moves/{created['id']}")
out["group_list"] = gl.http_list(f"/groups/{gid}/repository_storage_moves")
out["bulk"] = gl.http_post("/group_repository_storage_moves", post_data={"source_storage_name": "default", "destination_storage_name": "storage2"})
out["all"] = gl.http_list("/group_repository_storage_moves", get_all=True, per_page=1)
try:
    gl.http_post(f"/groups/{gid}/repository_storage_moves", post_data={"destination_storage_name": "nope"})
except gitlab.exceptions.GitlabHttpError as e:
    out["error"] = [e.response_code, e.error_message]
print(json.dumps(out))
`;
    const { stdout } = await runPython(script, { URL: kiln.url, TOKEN: kiln.rootToken, GID: String(groups[0].id) });
    const out = JSON.parse(stdout);
    expect(out.created).toMatchObject({ state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage2', group: { id: groups[0].id, name: 'py-one' } });
    expect(out.one.state).toBe('finished');
    expect(out.group_one).toEqual(out.one);
    expect(out.group_list.map((move: any) => move.id)).toEqual([out.created.id]);
    expect(out.bulk).toEqual({ message: '202 Accepted' });
    expect(out.all.length).toBeGreaterThanOrEqual(1);
    expect(out.all[out.all.length - 1].id).toBe(out.created.id);
    expect(out.error).toEqual([400, { destination_storage_name: ['is not included in the list'] }]);
  });
});

describe('@gitbeaker/rest GroupRepositoryStorageMoves', () => {
  it('all, show and schedule (per group and in bulk)', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    await waitFor(allFinished, 'earlier moves');
    // A group whose repository exists only from now on: its first move schedules it on default.
    const scheduled = await api.GroupRepositoryStorageMoves.schedule('default', { groupId: groups[2].id, destinationStorageName: 'storage2' } as any);
    expect(scheduled).toMatchObject({ state: 'scheduled', destination_storage_name: 'storage2', group: { id: groups[2].id } });
    await waitFor(allFinished, 'the per-group move');
    const shown = await api.GroupRepositoryStorageMoves.show(scheduled.id as number);
    expect(shown.state).toBe('finished');
    const shownInGroup = await api.GroupRepositoryStorageMoves.show(scheduled.id as number, { groupId: groups[2].id } as any);
    expect(shownInGroup.id).toBe(scheduled.id);
    const ofGroup = await api.GroupRepositoryStorageMoves.all({ groupId: groups[2].id } as any);
    expect(ofGroup.map((move: any) => move.id)).toEqual([scheduled.id]);

    const bulk = await api.GroupRepositoryStorageMoves.schedule('storage2', { destinationStorageName: 'default' });
    expect(bulk).toEqual({ message: '202 Accepted' });
    await waitFor(async () => {
      const moves = await api.GroupRepositoryStorageMoves.all();
      return moves.filter((move: any) => move.source_storage_name === 'storage2' && move.state === 'finished').length >= 2;
    }, 'the bulk moves back to default');
    const all = await api.GroupRepositoryStorageMoves.all({ perPage: 2 } as any);
    const everything = await apiCall(kiln, 'GET', '/group_repository_storage_moves?per_page=100');
    expect(all.map((move: any) => move.id)).toEqual(everything.map((move: any) => move.id));
  });
});
