// What `kiln serve` says once it listens, in words: where Kiln is, how to sign in as root and where
// root's initial password is.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from '../platform/version.js';

export interface Banner {
  lines: string[];
  /** The same, as one sentence for a JSON log line. */
  sentence: string;
  passwordFile: string | null;
}

export function startBanner(config: Config): Banner {
  const passwordFile = join(config.dataDir, 'initial_root_password');
  const hasFile = existsSync(passwordFile);
  const signIn = `${config.baseUrl}/users/sign_in`;
  let how: string;
  if (hasFile) how = `Sign in at ${signIn} as root with the password in ${passwordFile}, then change it and delete that file.`;
  else if (config.initialRootPassword) how = `Sign in at ${signIn} as root with the password of KILN_INITIAL_ROOT_PASSWORD.`;
  else how = `Sign in at ${signIn}.`;
  const ready = `Kiln ${KILN_VERSION} is ready at ${config.baseUrl} (GitLab ${GITLAB_COMPAT_VERSION} API).`;
  const lines = [ready, how, 'The API is at /api/v4; docs/operations/ in the repository is the operator guide. Ctrl-C stops Kiln.'];
  return { lines, sentence: `${ready} ${how}`, passwordFile: hasFile ? passwordFile : null };
}
