// `git-lfs-authenticate <path> download|upload` (gitlab-shell's lfsauthenticate): git-lfs runs it over
// SSH to learn where the repository's LFS API is and which Authorization header to send there. The
// same access decision as git-upload-pack (download) or git-receive-pack (upload), then one JSON line.
import { cleanPath, decideGitAccess, GIT_MESSAGES, lfsSshAuthentication } from '../../repositories/api.js';
import { accountRefusal, actorOf, currentIdentity, keyRefusal } from '../identity.js';
import { repositoryPathOf } from '../parse-command.js';
import { refuse, type CommandContext } from '../command-context.js';

export async function lfsAuthenticateCommand(context: CommandContext, words: string[]): Promise<number> {
  const { deps } = context;
  // gitlab-shell: exactly a path and an operation, the operation one of the two.
  if (words.length !== 3 || (words[2] !== 'download' && words[2] !== 'upload')) return refuse(context, 'Disallowed command');
  const identity = await currentIdentity(deps, context.identity);
  if (!identity) return refuse(context, 'Could not find the given key');
  const keyProblem = await keyRefusal(deps, identity.key);
  if (keyProblem) return refuse(context, keyProblem);
  const accountProblem = await accountRefusal(deps, identity);
  if (accountProblem) return refuse(context, accountProblem);
  const path = cleanPath(repositoryPathOf(words[1]));
  if (!path) return refuse(context, GIT_MESSAGES.projectNotFound);
  const actor = actorOf(identity);
  const decision = await decideGitAccess(deps, path, actor, words[2] === 'upload');
  if (!decision.allowed) return refuse(context, decision.challenge ? GIT_MESSAGES.projectNotFound : decision.message);
  const answer = lfsSshAuthentication(deps, actor, decision.target);
  // LFS off for the instance or the project: GitLab's internal API answers 404, gitlab-shell says this.
  if (!answer) return refuse(context, GIT_MESSAGES.projectNotFound);
  context.channel.write(`${JSON.stringify(answer)}\n`);
  return 0;
}
