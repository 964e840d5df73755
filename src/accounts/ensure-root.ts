// First start: the `root` administrator, with KILN_INITIAL_ROOT_PASSWORD or a random password
// written to <data>/initial_root_password (mode 0600), and optionally a seeded API token.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '../platform/deps.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { createUser } from './create-user.js';
import { createPersonalAccessToken } from './create-personal-access-token.js';

export async function ensureRootUser(deps: Deps): Promise<void> {
  let root = await deps.db.selectFrom('users').selectAll().where('username_lower', '=', 'root').executeTakeFirst();
  if (!root) {
    const generated = deps.config.initialRootPassword === null;
    const password = deps.config.initialRootPassword ?? randomToken(18);
    try {
      root = await createUser(deps, { username: 'root', name: 'Administrator', email: 'admin@example.com', password, admin: true });
    } catch (error) {
      // Another node created root at the same moment.
      if (!isUniqueViolation(error) && !/already been taken/.test(String((error as Error).message))) throw error;
      return ensureRootUser(deps);
    }
    if (generated) {
      // A generated password is one the operator read from a file: root must replace it at the
      // first sign-in (GitLab's password_expires_at).
      await deps.db.updateTable('users').set({ password_expires_at: deps.clock.now() }).where('id', '=', root.id).execute();
      const path = join(deps.config.dataDir, 'initial_root_password');
      writeFileSync(path, `${password}\n`, { mode: 0o600 });
      deps.log.info({ path }, 'created the root administrator; its password is in this file');
    }
  }
  const token = deps.config.initialRootToken;
  if (token) {
    const existing = await deps.db.selectFrom('personal_access_tokens').select('id').where('token_digest', '=', sha256Hex(token)).executeTakeFirst();
    if (!existing) {
      await createPersonalAccessToken(deps, { userId: root.id, name: 'initial root token', scopes: ['api', 'sudo'] }, token).catch((error) => {
        if (!isUniqueViolation(error)) throw error;
      });
    }
  }
}
