// POST /deploy_keys (a public key, administrators) and POST /projects/:id/deploy_keys (GitLab's
// DeployKeys::CreateService and the API around it): the key a project already has is answered again;
// a deploy key the user may enable elsewhere is enabled here instead of created twice; otherwise a new
// deploy key, created by the user, is enabled on the project. A key is unique across users' keys and
// deploy keys, so the text of someone's SSH key is refused as taken.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { keyValues, TAKEN, type CreateKeyInput } from './create-key.js';
import { validateKey } from './validate-key.js';
import { findKeyBySha256 } from './keys-finder.js';
import { findProjectDeployKey, mayEnableDeployKey, type ProjectDeployKeyRow } from './deploy-keys-finder.js';
import { linkDeployKey } from './enable-deploy-key.js';
import type { KeyRow } from './entities.js';

export async function createPublicDeployKey(deps: Deps, user: AuthUser, input: CreateKeyInput): Promise<KeyRow> {
  const parsed = await validateKey(deps, input);
  try {
    return await deps.db.insertInto('keys').values({ ...keyValues('DeployKey', user.id, input, parsed, deps.clock.now()), public: 1 }).returningAll().executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError(TAKEN);
    throw error;
  }
}

export async function createProjectDeployKey(deps: Deps, user: AuthUser, projectId: number, input: CreateKeyInput & { canPush: boolean }): Promise<ProjectDeployKeyRow> {
  const parsed = await validateKey(deps, input);
  const existing = await findKeyBySha256(deps, parsed.fingerprintSha256);
  if (existing) {
    const here = await findProjectDeployKey(deps, projectId, Number(existing.id));
    if (here) return here;
    if (existing.type !== 'DeployKey' || !(await mayEnableDeployKey(deps, user, existing))) throw new ValidationError(TAKEN);
    await linkDeployKey(deps.db, Number(existing.id), projectId, input.canPush, deps.clock.now());
  } else {
    const now = deps.clock.now();
    try {
      await inTransaction(deps.db, async (trx) => {
        const key = await trx.insertInto('keys').values(keyValues('DeployKey', user.id, input, parsed, now)).returning('id').executeTakeFirstOrThrow();
        await linkDeployKey(trx, Number(key.id), projectId, input.canPush, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationError(TAKEN);
      throw error;
    }
  }
  const row = await findProjectDeployKey(deps, projectId, Number((await findKeyBySha256(deps, parsed.fingerprintSha256))!.id));
  return row!;
}
