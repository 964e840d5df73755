// Signed commits: commits signed by git with Debian's gpg and with ssh-keygen, pushed over HTTP, and
// GET /projects/:id/repository/commits/:sha/signature verifying them against the users' registered
// GPG and SSH keys (a good key, an unknown key, another user's e-mail, a tampered commit), the kept
// outcome forgotten when a key is added or removed, and the Verified/Unverified badges on the pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { sshKeygen, type SshKeyPair } from '../helpers/ssh.js';
import { WebSession } from '../helpers/browser-session.js';
import { backfillGpgSubkeys } from '../../src/keys/backfill-gpg-subkeys.js';

let kiln: TestKiln;
let work: string;
let dir: string;
let alice: TestUser;
let bob: TestUser;
let project: any;
let aliceSsh: SshKeyPair;
const shas: Record<string, string> = {};
const { ok } = gitCommands(() => work);
const gnupg = () => join(work, '.gnupg');

/** A key in the test home's keyring (git's gpg reads $HOME/.gnupg): its fingerprint. */
function gpgKey(uid: string): string {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GNUPGHOME: gnupg() };
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', uid, 'ed25519', 'sign', 'never'], { env, stdio: 'ignore' });
  const fingerprint = execFileSync('gpg', ['--with-colons', '--list-keys', uid], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').find((line) => line.startsWith('fpr'))!.split(':')[9];
  return fingerprint;
}

function armored(fingerprint: string): string {
  return execFileSync('gpg', ['--armor', '--export', fingerprint], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GNUPGHOME: gnupg() }, encoding: 'utf8' });
}

/** An empty commit signed as `sign` says, committed as `email`; its sha. */
async function signedCommit(name: string, email: string, sign: string[]): Promise<string> {
  await ok(['-c', `user.email=${email}`, ...sign, 'commit', '-q', '-S', '--allow-empty', '-m', name], dir);
  return (await ok(['rev-parse', 'HEAD'], dir)).trim();
}

const signature = (sha: string, user: TestUser = alice) => kiln.api('GET', `/projects/${project.id}/repository/commits/${sha}/signature`, { token: user.token });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-signatures-'));
  mkdirSync(gnupg(), { mode: 0o700 });
  kiln = await testKiln();
  const base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  project = await kiln.createProject(alice, 'app', { visibility: 'private' });

  const aliceGpg = gpgKey('Alice Liddell <alice@example.com>');
  // A signing subkey: gpg signs with it, so the signature names the subkey's id.
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-add-key', aliceGpg, 'ed25519', 'sign', 'never'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GNUPGHOME: gnupg() }, stdio: 'ignore' });
  const strangerGpg = gpgKey('Stranger <stranger@example.com>');
  await kiln.apiAs(alice, 'POST', '/user/gpg_keys', { key: armored(aliceGpg) });
  aliceSsh = await sshKeygen(work, 'alice-signing', 'ed25519');

  dir = join(work, 'clone');
  await ok(['init', '-q', dir]);
  const gpg = (fingerprint: string) => ['-c', 'gpg.format=openpgp', '-c', `user.signingkey=${fingerprint}`];
  const ssh = ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${aliceSsh.privatePath}`];
  await ok(['commit', '-q', '--allow-empty', '-m', 'unsigned'], dir);
  shas.unsigned = (await ok(['rev-parse', 'HEAD'], dir)).trim();
  shas.gpgVerified = await signedCommit('gpg verified', 'alice@example.com', gpg(aliceGpg));
  shas.gpgUnknown = await signedCommit('gpg unknown key', 'alice@example.com', gpg(strangerGpg));
  shas.gpgOtherUser = await signedCommit("gpg, bob's e-mail", 'bob@example.com', gpg(aliceGpg));
  shas.sshSigned = await signedCommit('ssh', 'alice@example.com', ssh);
  shas.sshOtherUser = await signedCommit("ssh, bob's e-mail", 'bob@example.com', ssh);
  // The verified commit's signature over another message: a bad signature.
  const raw = await ok(['cat-file', 'commit', shas.gpgVerified], dir);
  const tampered = raw.replace('gpg verified', 'gpg tampered').replace(/^parent [0-9a-f]+$/m, `parent ${shas.sshOtherUser}`);
  shas.gpgTampered = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: dir, input: tampered, encoding: 'utf8' }).trim();
  await ok(['update-ref', 'HEAD', shas.gpgTampered], dir);
  await ok(['push', '-q', `${base.replace('http://', `http://alice:${alice.token}@`)}/alice/app.git`, 'HEAD:main'], dir);
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  // git's gpg started an agent for the test's keyring.
  try {
    execFileSync('gpgconf', ['--homedir', gnupg(), '--kill', 'gpg-agent'], { stdio: 'ignore' });
  } catch {
    /* no agent */
  }
  rmSync(work, { recursive: true, force: true });
});

describe('GPG signatures', () => {
  it('verifies a commit signed with a subkey of the committer\'s registered key', async () => {
    const { status, body } = await signature(shas.gpgVerified);
    expect(status).toBe(200);
    const keys = await kiln.apiAs(alice, 'GET', '/user/gpg_keys');
    const primary = (await kiln.deps.db.selectFrom('gpg_keys').select('primary_keyid').executeTakeFirstOrThrow()).primary_keyid;
    const subkey = await kiln.deps.db.selectFrom('gpg_key_subkeys').select('id').executeTakeFirstOrThrow();
    expect(body).toEqual({
      signature_type: 'PGP',
      verification_status: 'verified',
      gpg_key_id: keys[0].id,
      gpg_key_primary_keyid: primary,
      gpg_key_user_name: 'Alice Liddell',
      gpg_key_user_email: 'alice@example.com',
      gpg_key_subkey_id: Number(subkey.id),
      commit_source: 'gitaly',
    });
  });

  it('answers unknown_key for a key no user registered, other_user for another committer, unverified for a bad signature', async () => {
    const unknown = (await signature(shas.gpgUnknown)).body;
    expect(unknown).toMatchObject({ signature_type: 'PGP', verification_status: 'unknown_key', gpg_key_id: null, gpg_key_user_email: null });
    expect(unknown.gpg_key_primary_keyid).toMatch(/^[0-9A-F]{16}$/);
    expect((await signature(shas.gpgOtherUser)).body).toMatchObject({ verification_status: 'other_user', gpg_key_user_email: 'alice@example.com' });
    expect((await signature(shas.gpgTampered)).body).toMatchObject({ verification_status: 'unverified' });
  });

  it('records the subkeys of a key added before subkeys were recorded, at start-up', async () => {
    const before = await kiln.deps.db.selectFrom('gpg_key_subkeys').select(['gpg_key_id', 'keyid', 'fingerprint']).execute();
    expect(before).toHaveLength(1);
    await kiln.deps.db.deleteFrom('gpg_key_subkeys').execute();
    await backfillGpgSubkeys(kiln.deps);
    expect(await kiln.deps.db.selectFrom('gpg_key_subkeys').select(['gpg_key_id', 'keyid', 'fingerprint']).execute()).toEqual(before);
  });

  it('404s an unsigned commit and an unknown one, and hides a private project', async () => {
    expect(await signature(shas.unsigned)).toMatchObject({ status: 404, body: { message: '404 Signature Not Found' } });
    expect(await signature('f'.repeat(40))).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await signature(shas.gpgVerified, bob)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('SSH signatures', () => {
  it('unknown_key until the key is registered for signing; verified then; other_user for another committer; unknown again once removed', async () => {
    expect((await signature(shas.sshSigned)).body).toEqual({ signature_type: 'SSH', verification_status: 'unknown_key', key: null, commit_source: 'gitaly' });
    const key = await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'signing', key: aliceSsh.publicKey, usage_type: 'signing' });
    const verified = (await signature(shas.sshSigned)).body;
    expect(verified).toMatchObject({ signature_type: 'SSH', verification_status: 'verified', key: { id: key.id, title: 'signing', usage_type: 'signing' } });
    expect((await signature(shas.sshOtherUser)).body).toMatchObject({ verification_status: 'other_user', key: { id: key.id } });
    await kiln.apiAs(alice, 'DELETE', `/user/keys/${key.id}`);
    expect((await signature(shas.sshSigned)).body).toMatchObject({ verification_status: 'unknown_key', key: null });
  });

  it('keeps each outcome: asking again verifies nothing', async () => {
    const rows = await kiln.deps.db.selectFrom('commit_signatures').select(['commit_sha', 'verification_status']).where('commit_sha', '=', shas.gpgVerified).execute();
    expect(rows).toEqual([{ commit_sha: shas.gpgVerified, verification_status: 'verified' }]);
  });
});

describe('badges', () => {
  it('the commit page and the commit list say Verified or Unverified', async () => {
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const page = await web.get(`/alice/app/-/commit/${shas.gpgVerified}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/class="badge signature verified"[^>]*>Verified</);
    const unverified = await web.get(`/alice/app/-/commit/${shas.gpgOtherUser}`);
    expect(unverified.body).toMatch(/class="badge signature unverified"[^>]*>Unverified</);
    expect((await web.get(`/alice/app/-/commit/${shas.unsigned}`)).body).not.toContain('badge signature');
    const list = await web.get('/alice/app/-/commits/main');
    expect(list.statusCode).toBe(200);
    expect(list.body.match(/class="badge signature verified"/g)).toHaveLength(1);
    expect(list.body.match(/class="badge signature unverified"/g)).toHaveLength(5);
  });
});
