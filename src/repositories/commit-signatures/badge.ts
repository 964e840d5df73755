// The signature badge of a commit on the commit list and the commit page (GitLab's "Verified" and
// "Unverified"): verified only when the signature is good and the key is the committer's; any other
// outcome of a signed commit reads "Unverified", with GitLab's reason in its title. Unsigned commits
// have none.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { commitSignatures } from './verify-signature.js';

const REASONS: Record<string, string> = {
  verified: "Signed with the committer's verified key",
  same_user_different_email: "Signed with a key of the committer whose e-mails do not include the commit's",
  other_user: 'Signed with a key of another user',
  unverified_key: 'Signed with a key without a verified e-mail',
  unknown_key: 'Signed with a key Kiln does not know',
  unverified: 'The signature does not match the commit',
};

/** The badges of those of `shas` that are signed, by sha. */
export async function signatureBadges(deps: Deps, project: ProjectRow, repoPath: string, shas: readonly string[]): Promise<Map<string, Html>> {
  const signatures = await commitSignatures(deps, project, repoPath, shas);
  const badges = new Map<string, Html>();
  for (const [sha, row] of signatures) {
    const verified = row.verification_status === 'verified';
    const reason = REASONS[row.verification_status] ?? row.verification_status;
    badges.set(sha, html`<span class="badge signature ${verified ? 'verified' : 'unverified'}" title="${row.signature_type === 'PGP' ? 'GPG' : 'SSH'}: ${reason}">${verified ? 'Verified' : 'Unverified'}</span> `);
  }
  return badges;
}
