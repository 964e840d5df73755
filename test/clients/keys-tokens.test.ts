// python-gitlab 3.12 (Debian) drives deploy keys, project and group access tokens (as its merge
// request tests do before they start), impersonation tokens and GPG keys against a started `kiln serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

let kiln: KilnProcess;
let work: string;
let project: { id: number; path_with_namespace: string };
let group: { id: number };
let user: { id: number };

function keygen(name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(work, name)], (error) => {
      if (error) reject(error);
      else resolve(readFileSync(join(work, `${name}.pub`), 'utf8').trim());
    });
  });
}

/** A new ed25519 signing key made by gpg in the scratch directory, exported armored. */
function gpgKey(uid: string): string {
  const env = { ...process.env, GNUPGHOME: work };
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', uid, 'ed25519', 'sign', 'never'], { env, stdio: 'ignore' });
  return execFileSync('gpg', ['--armor', '--export', uid], { env, encoding: 'utf8' });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-client-keys-'));
  kiln = await startKilnProcess();
  group = await apiCall(kiln, 'POST', '/groups', { name: 'tokens', path: 'tokens' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'bots', path: 'bots', namespace_id: group.id });
  user = await apiCall(kiln, 'POST', '/users', { username: 'helper', name: 'Helper', email: 'helper@example.com', password: 'helper-password-1' });
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(work, { recursive: true, force: true });
});

const PYTHON_KEYS_TOKENS = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
g = gl.groups.get(os.environ["GROUP"])
out = {}
key = p.keys.create({"title": "ci", "key": os.environ["DEPLOY_KEY"]})
out["key"] = [key.title, key.can_push]
key.can_push = True
key.save()
out["saved"] = p.keys.get(key.id).can_push
out["listed"] = [k.title for k in p.keys.list()]
other = gl.projects.create({"name": "deploy-key-project"})
other.keys.enable(key.id)
out["enabled"] = [k.id == key.id for k in other.keys.list()]
other.keys.delete(key.id)
out["after_delete"] = len(other.keys.list())
out["instance"] = [k.title for k in gl.deploykeys.list()]
token = p.access_tokens.create({"name": "mr bot", "scopes": ["api"], "access_level": 30, "expires_at": "2099-01-01"})
out["token"] = [token.name, token.access_level, token.scopes, token.token.startswith("glpat-")]
bot = gitlab.Gitlab(os.environ["URL"], private_token=token.token)
bot.auth()
out["bot"] = bot.user.username.startswith("project_%s_bot_" % p.id)
out["tokens"] = [t.name for t in p.access_tokens.list()]
p.access_tokens.delete(token.id)
out["tokens_after"] = [t.name for t in p.access_tokens.list()]
out["tokens_inactive"] = [[t.name, t.revoked, t.active] for t in p.access_tokens.list(state="inactive")]
out["bot_member"] = any(m.id == token.user_id for m in p.members.list())
gtoken = g.access_tokens.create({"name": "group bot", "scopes": ["read_api"]})
out["group_token"] = [gtoken.name, gtoken.access_level]
u = gl.users.get(os.environ["USER_ID"])
imp = u.impersonationtokens.create({"name": "support", "scopes": ["api"]})
out["impersonation"] = [imp.name, imp.impersonation, imp.active]
as_user = gitlab.Gitlab(os.environ["URL"], private_token=imp.token)
as_user.auth()
out["as_user"] = as_user.user.username
out["imp_listed"] = [t.name for t in u.impersonationtokens.list(state="active")]
imp.delete()
out["imp_after"] = [t.name for t in u.impersonationtokens.list(state="active")]
gl.auth()
gk = gl.user.gpgkeys.create({"key": os.environ["GPG_KEY"]})
out["gpg"] = [k.id == gk.id for k in gl.user.gpgkeys.list()]
gk.delete()
out["gpg_after"] = len(gl.user.gpgkeys.list())
print(json.dumps(out))
`;

describe('python-gitlab 3.12', () => {
  it('drives project.keys, gl.deploykeys, project/group access_tokens and user.impersonationtokens', async () => {
    const { stdout } = await runPython(PYTHON_KEYS_TOKENS, {
      URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace, GROUP: String(group.id), USER_ID: String(user.id), DEPLOY_KEY: await keygen('deploy'), GPG_KEY: gpgKey('Root <root@example.com>'),
    });
    expect(JSON.parse(stdout)).toEqual({
      key: ['ci', false],
      saved: true,
      listed: ['ci'],
      enabled: [true],
      after_delete: 0,
      instance: ['ci'],
      token: ['mr bot', 30, ['api'], true],
      bot: true,
      tokens: ['mr bot'],
      tokens_after: [],
      // Revoked, the token is listed as inactive and its bot stays a member (GitLab 17.9's RevokeService).
      tokens_inactive: [['mr bot', true, false]],
      bot_member: true,
      group_token: ['group bot', 40],
      impersonation: ['support', true, true],
      as_user: 'helper',
      imp_listed: ['support'],
      imp_after: [],
      gpg: [true],
      gpg_after: 0,
    });
  });
});
