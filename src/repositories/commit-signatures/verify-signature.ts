// A commit's signature verified as GitLab verifies it (Gitlab::Gpg::Commit, Gitlab::Ssh::Signature)
// and kept per project and commit (commit_signatures): the statuses are GitLab's —
//   PGP: unknown_key (no user's key has the signer's key id), unverified_key (none of the key's
//        e-mails is a confirmed address of its owner), unverified (a bad signature), verified (the
//        committer's address is one of the key's confirmed ones), same_user_different_email (another
//        address of the key's owner), other_user;
//   SSH: unverified (a bad signature, or not made for git), unknown_key (no key of a user that may
//        sign has its fingerprint), other_user (the committer's confirmed address is not the key
//        owner's), verified.
// Kept outcomes are deleted when a key they name is added or removed (keys/forget-signatures.ts).
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import type { CommitSignaturesTable } from '../../platform/db/tables/keys.js';
import { confirmedEmailsOf } from '../../accounts/api.js';
import { findGpgKeyByKeyid, findSigningSshKey, readGpgPublicKey } from '../../keys/api.js';
import { readObjects } from '../repository-api/object-reader.js';
import { parseCommitObject } from '../repository-api/git-objects.js';
import { signedCommit, type SignedCommit } from './signed-payload.js';
import { gpgSignatureValid, gpgSignerKeyid } from './gpg-signature.js';
import { sshSignatureValid, sshSigner } from './ssh-signature.js';

export type CommitSignatureRow = Selectable<CommitSignaturesTable>;
type Outcome = Omit<CommitSignatureRow, 'id' | 'project_id' | 'commit_sha' | 'created_at'>;

const NO_KEY = { gpg_key_id: null, gpg_key_subkey_id: null, gpg_key_primary_keyid: null, gpg_key_user_name: null, gpg_key_user_email: null, key_id: null };

async function allEmailsOf(deps: Deps, userId: number): Promise<Set<string>> {
  const user = await deps.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  const rows = await deps.db.selectFrom('emails').select('email').where('user_id', '=', userId).execute();
  return new Set([...(user ? [user.email] : []), ...rows.map((row) => row.email)].map((email) => email.toLowerCase()));
}

/** The user whose confirmed address this is (the primary address counts as confirmed). */
async function ownerOfConfirmedEmail(deps: Deps, email: string): Promise<number | null> {
  const primary = await deps.db.selectFrom('users').select('id').where('email_lower', '=', email).executeTakeFirst();
  if (primary) return Number(primary.id);
  const other = await deps.db.selectFrom('emails').select('user_id').where('email_lower', '=', email).where('confirmed_at', 'is not', null).executeTakeFirst();
  return other ? Number(other.user_id) : null;
}

async function verifyPgp(deps: Deps, signed: SignedCommit, committerEmail: string): Promise<Outcome> {
  const keyid = await gpgSignerKeyid(signed.signature, signed.payload);
  if (!keyid) return { signature_type: 'PGP', verification_status: 'unverified', signer: '', ...NO_KEY };
  const found = await findGpgKeyByKeyid(deps, keyid);
  if (!found) return { signature_type: 'PGP', verification_status: 'unknown_key', signer: keyid, ...NO_KEY, gpg_key_primary_keyid: keyid };
  const { key, subkeyId } = found;
  const userIds = (await readGpgPublicKey(key.key))?.userIds ?? [];
  const confirmed = new Set((await confirmedEmailsOf(deps, Number(key.user_id))).map((email) => email.toLowerCase()));
  const verifiedIds = userIds.filter((uid) => confirmed.has(uid.email));
  const shown = verifiedIds[0] ?? userIds[0];
  const identity = {
    gpg_key_id: Number(key.id),
    gpg_key_subkey_id: subkeyId,
    gpg_key_primary_keyid: key.primary_keyid,
    gpg_key_user_name: shown?.name ?? null,
    gpg_key_user_email: shown?.email ?? null,
    key_id: null,
  };
  const status = async () => {
    if (!verifiedIds.length) return 'unverified_key';
    if (!(await gpgSignatureValid(key.key, signed.signature, signed.payload))) return 'unverified';
    if (verifiedIds.some((uid) => uid.email === committerEmail)) return 'verified';
    return (await allEmailsOf(deps, Number(key.user_id))).has(committerEmail) ? 'same_user_different_email' : 'other_user';
  };
  return { signature_type: 'PGP', verification_status: await status(), signer: keyid, ...identity };
}

async function verifySsh(deps: Deps, signed: SignedCommit, committerEmail: string): Promise<Outcome> {
  const signer = sshSigner(signed.signature);
  const unverified = { signature_type: 'SSH' as const, verification_status: 'unverified', signer: signer?.fingerprint ?? '', ...NO_KEY };
  if (!signer || signer.namespace !== 'git' || !(await sshSignatureValid(signed.signature, signed.payload))) return unverified;
  const key = await findSigningSshKey(deps, signer.fingerprint);
  if (!key) return { ...unverified, verification_status: 'unknown_key' };
  const committer = await ownerOfConfirmedEmail(deps, committerEmail);
  const status = committer !== null && committer === Number(key.user_id) ? 'verified' : 'other_user';
  return { ...unverified, verification_status: status, key_id: Number(key.id) };
}

async function verify(deps: Deps, signed: SignedCommit, committerEmail: string): Promise<Outcome> {
  return signed.type === 'PGP' ? verifyPgp(deps, signed, committerEmail) : verifySsh(deps, signed, committerEmail);
}

/**
 * The verified signatures of those of `shas` that are signed commits, by sha (kept ones read, the
 * others verified and kept). Unsigned commits are not kept: telling them costs one object read.
 */
export async function commitSignatures(deps: Deps, project: ProjectRow, repoPath: string, shas: readonly string[]): Promise<Map<string, CommitSignatureRow>> {
  const projectId = Number(project.id);
  const unique = [...new Set(shas)];
  const found = new Map<string, CommitSignatureRow>();
  if (!unique.length) return found;
  const kept = await deps.db.selectFrom('commit_signatures').selectAll().where('project_id', '=', projectId).where('commit_sha', 'in', unique).execute();
  for (const row of kept) found.set(row.commit_sha, row);
  const missing = unique.filter((sha) => !found.has(sha));
  const objects = missing.length ? await readObjects(repoPath, missing) : [];
  for (const object of objects) {
    if (object?.type !== 'commit') continue;
    const signed = signedCommit(object.content);
    if (!signed) continue;
    const committerEmail = parseCommitObject(object.id, object.content).committer.email.toLowerCase();
    const outcome = await verify(deps, signed, committerEmail);
    const row = { project_id: projectId, commit_sha: object.id, created_at: deps.clock.now(), ...outcome };
    await deps.db.insertInto('commit_signatures').values(row).onConflict((conflict) => conflict.columns(['project_id', 'commit_sha']).doNothing()).execute();
    const stored = await deps.db.selectFrom('commit_signatures').selectAll().where('project_id', '=', projectId).where('commit_sha', '=', object.id).executeTakeFirst();
    if (stored) found.set(object.id, stored);
  }
  return found;
}
