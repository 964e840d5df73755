// git-upload-pack, git-receive-pack and git-upload-archive over SSH (gitlab-shell's uploadpack,
// receivepack, uploadarchive): exactly one argument, the repository path as the client typed it; the
// same access decision and service setup as git over HTTP (repositories' git access); then the real
// git on the repository's disk path, never on anything the client wrote, talking over the channel.
// A push's pre-receive hook reaches Kiln on file descriptor 3, as under git http-backend.
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { cleanPath, decideGitAccess, decideOwnedGitAccess, GIT_ENV, GIT_MESSAGES, prepareGitService, prepareOwnedGitService, repositoryHooks, type GitActor, type PreparedGitService, type OwnedGitRepository } from '../../repositories/api.js';
import { infoBlock } from '../console.js';
import { accountRefusal, actorOf, currentIdentity, keyRefusal } from '../identity.js';
import { repositoryPathOf } from '../parse-command.js';
import { refuse, type CommandContext } from '../command-context.js';
import { pipePaced } from '../paced-pipe.js';

export const GIT_COMMANDS = ['git-upload-pack', 'git-receive-pack', 'git-upload-archive'] as const;

function gitArguments(service: string, repoPath: string): string[] {
  if (service === 'git-upload-pack') return ['upload-pack', '--strict', repoPath];
  if (service === 'git-receive-pack') return ['receive-pack', repoPath];
  return ['upload-archive', repoPath];
}

/** Run git for the session: its exit code, after a push's events are recorded. */
function runGit(context: CommandContext, service: string, prepared: PreparedGitService): Promise<number> {
  const { channel } = context;
  const env: Record<string, string> = { ...GIT_ENV, ...prepared.env };
  if (context.gitProtocol) env.GIT_PROTOCOL = context.gitProtocol;
  const child = spawn('git', gitArguments(service, prepared.repoPath), { env, stdio: prepared.channel ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'] });
  if (prepared.channel) {
    const socket = child.stdio[3] as Duplex | null;
    if (socket) {
      prepared.channel(socket);
      // A process git detached (an automatic gc) may still hold the descriptor: do not wait for it.
      child.once('exit', () => socket.destroy());
    }
  }
  child.stdin.on('error', () => undefined);
  channel.pipe(child.stdin);
  pipePaced(child.stdout, channel, context.socket);
  child.stderr.pipe(channel.stderr, { end: false });
  // The client went away: git has no one to talk to.
  const hangUp = () => child.kill();
  channel.once('close', hangUp);
  return new Promise((resolve) => {
    let spawned = true;
    child.once('error', (error) => {
      spawned = false;
      context.deps.log.error({ err: error }, 'starting git failed');
    });
    child.once('close', (code) => {
      channel.off('close', hangUp);
      const exitCode = spawned ? (code ?? 1) : 1;
      void prepared.finish(exitCode).then(() => resolve(exitCode));
    });
  });
}

export async function serveGitCommand(context: CommandContext, words: string[]): Promise<number> {
  const { deps } = context;
  if (words.length !== 2) return refuse(context, 'Disallowed command');
  const [service, argument] = words;
  const identity = await currentIdentity(deps, context.identity);
  if (!identity) return refuse(context, 'Could not find the given key');
  const keyProblem = await keyRefusal(deps, identity.key);
  if (keyProblem) return refuse(context, keyProblem);
  const accountProblem = await accountRefusal(deps, identity);
  if (accountProblem) return refuse(context, accountProblem);
  const typed = repositoryPathOf(argument);
  const path = cleanPath(typed);
  if (!path) return refuse(context, GIT_MESSAGES.projectNotFound);
  const actor = actorOf(identity);
  const pushing = service === 'git-receive-pack';
  const owned = repositoryHooks(deps).ownedRepository?.(path);
  if (owned) return serveOwned(context, service, actor, pushing, owned);
  const decision = await decideGitAccess(deps, path, actor, pushing);
  if (!decision.allowed) return refuse(context, decision.challenge ? GIT_MESSAGES.projectNotFound : decision.message);
  const { target } = decision;
  // A renamed project answers at its old path, and says where it went (GitLab's Checks::ContainerMoved).
  if (target.kind === 'project' && target.fullPath.toLowerCase() !== path.toLowerCase()) {
    context.channel.stderr.write(infoBlock([`Project '${typed}' was moved to '${target.fullPath}'.`, '', 'Please update your Git remote:', '', `  git remote set-url origin ${deps.config.sshUrlPrefix}${target.fullPath}.git`]));
  }
  const setup = await prepareGitService(deps, target, actor, pushing, (error, what) => deps.log.error({ err: error }, what));
  if (!setup.ok) return refuse(context, setup.message);
  return runGit(context, service, setup.service);
}

/** A repository whose owner decides who reads and pushes (a snippet's). */
async function serveOwned(context: CommandContext, service: string, actor: GitActor, pushing: boolean, repository: OwnedGitRepository): Promise<number> {
  const decision = await decideOwnedGitAccess(context.deps, actor, pushing, repository);
  if (!decision.allowed) return refuse(context, decision.challenge ? GIT_MESSAGES.projectNotFound : decision.message);
  const setup = await prepareOwnedGitService(context.deps, repository, actor, pushing, (error, what) => context.deps.log.error({ err: error }, what));
  if (!setup.ok) return refuse(context, setup.message);
  return runGit(context, service, setup.service);
}
