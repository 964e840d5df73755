// Snippet repository storage moves against a real `kiln serve` with two shards: @gitbeaker/rest's
// SnippetRepositoryStorageMoves (all, show, schedule per snippet and in bulk) and python-gitlab 3.12,
// which has no manager for them (no gl.snippet_repository_storage_moves, no snippet.storage_moves),
// through its raw http_* helpers.
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
const snippets: any[] = [];

async function allFinished(): Promise<boolean> {
  const moves = await apiCall(kiln, 'GET', '/snippet_repository_storage_moves?per_page=100');
  return moves.every((move: any) => move.state === 'finished');
}

beforeAll(async () => {
  shards = mkdtempSync(join(tmpdir(), 'kiln-client-snippet-shards-'));
  kiln = await startKilnProcess({
    env: { KILN_STORAGES: JSON.stringify({ default: { path: join(shards, 'default'), weight: 100 }, storage2: { path: join(shards, 'storage2'), weight: 0 } }) },
  });
  for (const title of ['py-one', 'gb-two']) snippets.push(await apiCall(kiln, 'POST', '/snippets', { title, visibility: 'private', files: [{ file_path: 'a.txt', content: `${title}\n` }] }));
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(shards, { recursive: true, force: true });
});

describe('python-gitlab 3.12', () => {
  it('http_post, http_get and http_list drive the endpoints', async () => {
    const script = `
import gitlab, json, os, time
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
sid = int(os.environ["SID"])
out = {"manager": hasattr(gl, "snippet_repository_storage_moves")}
created = gl.http_post(f"/snippets/{sid}/repository_storage_moves", post_data={"destination_storage_name": "storage2"})
out["created"] = created
for _ in range(300):
    one = gl.http_get(f"/snippet_repository_storage_moves/{created['id']}")
    if one["state"] == "finished": break
    time.sleep(0.1)
out["one"] = one
out["snippet_one"] = gl.http_get(f"/snippets/{sid}/repository_storage_moves/{created['id']}")
out["snippet_list"] = gl.http_list(f"/snippets/{sid}/repository_storage_moves")
try:
    gl.http_post(f"/snippets/{sid}/repository_storage_moves", post_data={"destination_storage_name": "nope"})
except gitlab.exceptions.GitlabHttpError as e:
    out["error"] = [e.response_code, e.error_message]
print(json.dumps(out))
`;
    const { stdout } = await runPython(script, { URL: kiln.url, TOKEN: kiln.rootToken, SID: String(snippets[0].id) });
    const out = JSON.parse(stdout);
    expect(out.manager).toBe(false);
    expect(out.created).toMatchObject({ state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage2', snippet: { id: snippets[0].id, title: 'py-one' } });
    expect(out.one.state).toBe('finished');
    expect(out.snippet_one).toEqual(out.one);
    expect(out.snippet_list.map((move: any) => move.id)).toEqual([out.created.id]);
    expect(out.error).toEqual([400, { destination_storage_name: ['is not included in the list'] }]);
  });
});

describe('@gitbeaker/rest SnippetRepositoryStorageMoves', () => {
  it('all, show and schedule (per snippet and in bulk)', async () => {
    const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
    await waitFor(allFinished, 'earlier moves');
    const scheduled = await api.SnippetRepositoryStorageMoves.schedule('default', { snippetId: snippets[1].id, destinationStorageName: 'storage2' } as any);
    expect(scheduled).toMatchObject({ state: 'scheduled', destination_storage_name: 'storage2', snippet: { id: snippets[1].id, title: 'gb-two' } });
    await waitFor(allFinished, 'the per-snippet move');
    expect((await api.SnippetRepositoryStorageMoves.show(scheduled.id as number)).state).toBe('finished');
    expect((await api.SnippetRepositoryStorageMoves.show(scheduled.id as number, { snippetId: snippets[1].id } as any)).id).toBe(scheduled.id);
    const ofSnippet = await api.SnippetRepositoryStorageMoves.all({ snippetId: snippets[1].id } as any);
    expect(ofSnippet.map((move: any) => move.id)).toEqual([scheduled.id]);

    const bulk = await api.SnippetRepositoryStorageMoves.schedule('storage2', { destinationStorageName: 'default' });
    expect(bulk).toEqual({ message: '202 Accepted' });
    await waitFor(async () => {
      const moves = await api.SnippetRepositoryStorageMoves.all();
      return moves.filter((move: any) => move.source_storage_name === 'storage2' && move.state === 'finished').length >= 2;
    }, 'the bulk moves back to default');
    const all = await api.SnippetRepositoryStorageMoves.all({ perPage: 1 } as any);
    const everything = await apiCall(kiln, 'GET', '/snippet_repository_storage_moves?per_page=100');
    expect(all.map((move: any) => move.id)).toEqual(everything.map((move: any) => move.id));
  });
});
