// The rules of a push to a snippet's repository, asked by its pre-receive hook: GitLab's (one branch,
// at most MAX_FILES files, the files' bytes within the `snippet_size_limit` application setting),
// checked on the pushed tree by repositories' snippet-push.ts.
import type { Deps } from '../platform/deps.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { checkSnippetPush } from '../repositories/api.js';
import { MAX_FILES } from './snippet-input.js';

type SnippetPushCheck = Parameters<typeof checkSnippetPush>;

export async function checkPushedSnippet(deps: Deps, repoPath: string, quarantine: SnippetPushCheck[1], updates: SnippetPushCheck[2]): Promise<string | null> {
  const { snippet_size_limit: maxBytes } = await readApplicationSettings(deps.db);
  return checkSnippetPush(repoPath, quarantine, updates, { maxFiles: MAX_FILES, maxBytes });
}
