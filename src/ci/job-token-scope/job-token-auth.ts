// CI_JOB_TOKEN on the API (GitLab's find_user_from_job_token): on the routes that take one, a running
// job's token acts as the job's user, marked with its job so the route kit limits it to the projects
// the job's project may reach. A token of a job that is not running is no token at all (401).
import type { Deps } from '../../platform/deps.js';
import type { TokenLookup } from '../../platform/auth/principal.js';
import { toAuthUser } from '../../accounts/api.js';
import { tokenDigest } from '../tokens.js';

export async function resolveJobToken(deps: Deps, token: string): Promise<TokenLookup> {
  const row = await deps.db
    .selectFrom('ci_builds as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .innerJoin('projects as p', 'p.id', 'b.project_id')
    .select(['b.id as job_id', 'b.status', 'b.project_id', 'p.path as project_path', 'u.id', 'u.username', 'u.name', 'u.state', 'u.admin', 'u.otp_required'])
    .where('b.token_digest', '=', tokenDigest(token))
    .executeTakeFirst();
  if (!row || row.status !== 'running') return null;
  return {
    status: 'ok',
    principal: {
      user: toAuthUser(row),
      // The job's user acts with full API scope on the few routes that take the token.
      scopes: ['api'],
      via: 'ci_job_token',
      tokenId: null,
      job: { id: Number(row.job_id), projectId: Number(row.project_id), projectPath: row.project_path },
    },
  };
}
