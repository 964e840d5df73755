// python-gitlab 3.12 against a started Kiln (issue 36): an administrator gives a user an avatar the
// way its documentation shows (`user.avatar = open(...)`, `user.save()`, a multipart PUT /users/:id)
// and creates one with it; the file is served to anyone. Touches no PostgreSQL-specific path: SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';
import { TINY_PNG } from '../helpers/multipart.js';

describe('user avatars through python-gitlab', () => {
  let kiln: KilnProcess;
  let dir: string;
  beforeAll(async () => {
    kiln = await startKilnProcess({});
    dir = mkdtempSync(join(tmpdir(), 'kiln-avatar-'));
    writeFileSync(join(dir, 'face.png'), TINY_PNG);
  });
  afterAll(async () => {
    await kiln?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets an avatar with user.save() and creates a user with one', async () => {
    const alice = await apiCall(kiln, 'POST', '/users', { username: 'alice', name: 'Alice', email: 'alice@example.com', password: 'alice-password-1' });
    const { stdout } = await runPython(`
import gitlab, json
gl = gitlab.Gitlab("${kiln.url}", private_token="${kiln.rootToken}")
user = gl.users.get(${alice.id})
user.avatar = open("${join(dir, 'face.png')}", "rb")
user.save()
created = gl.users.create({"username": "bea", "name": "Bea", "email": "bea@example.com", "password": "bea-password-1", "avatar": open("${join(dir, 'face.png')}", "rb")})
print(json.dumps([gl.users.get(${alice.id}).avatar_url, created.id, created.avatar_url]))
`);
    const [aliceUrl, beaId, beaUrl] = JSON.parse(stdout) as [string, number, string];
    // python-gitlab's ImageAttribute sends every image as `avatar.png`, whatever the file was called.
    expect(aliceUrl).toBe(`${kiln.url}/uploads/-/system/user/avatar/${alice.id}/avatar.png`);
    expect(beaUrl).toBe(`${kiln.url}/uploads/-/system/user/avatar/${beaId}/avatar.png`);
    const file = await fetch(aliceUrl);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });
});
