// GET /projects/:id/repository/commits/:sha/signature (doc/api/commits.md, "Get signature of a
// commit"): GitLab's CommitSignature entity — the type, then the GPG fields or the SSH key, then
// `commit_source` ("gitaly" whatever serves it); 404 "Signature Not Found" for an unsigned commit.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { NotFoundError } from '../../platform/errors.js';
import { findUserRow } from '../../accounts/api.js';
import { findKeyById, sshKeyEntity } from '../../keys/api.js';
import { repositoryRoute } from '../repository-api/route-kit.js';
import { findProjectCommit } from '../repository-api/commits-finder.js';
import { commitSignatures, type CommitSignatureRow } from './verify-signature.js';

async function signatureEntity(deps: Deps, row: CommitSignatureRow) {
  if (row.signature_type === 'PGP') {
    return {
      signature_type: 'PGP',
      verification_status: row.verification_status,
      gpg_key_id: row.gpg_key_id === null ? null : Number(row.gpg_key_id),
      gpg_key_primary_keyid: row.gpg_key_primary_keyid,
      gpg_key_user_name: row.gpg_key_user_name,
      gpg_key_user_email: row.gpg_key_user_email,
      gpg_key_subkey_id: row.gpg_key_subkey_id === null ? null : Number(row.gpg_key_subkey_id),
      commit_source: 'gitaly',
    };
  }
  const key = row.key_id === null ? null : await findKeyById(deps, Number(row.key_id));
  const owner = key?.user_id ? await findUserRow(deps, Number(key.user_id)) : undefined;
  return {
    signature_type: 'SSH',
    verification_status: row.verification_status,
    key: key && owner ? sshKeyEntity(key, owner.name, new URL(deps.config.baseUrl).hostname) : null,
    commit_source: 'gitaly',
  };
}

export function commitSignatureRoutes(app: FastifyInstance, deps: Deps): void {
  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/signature', summary: "A commit's GPG or SSH signature, verified", tags: ['commits'],
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const found = await findProjectCommit(deps, access, params.sha);
      const row = (await commitSignatures(deps, access.project, found.repoPath, [found.commit.id])).get(found.commit.id);
      if (!row) throw new NotFoundError('Signature');
      return signatureEntity(deps, row);
    },
  });
}
