// `npm run bench -- mail` (issue 17): notification mail delivered to a local SMTP server, in mails/s,
// from a burst of new issues on a project with 10 watchers; and issue creation with mail on (10
// watchers) against the same requests on a project nobody watches (mail off), in interleaved rounds,
// so the mail's cost on the request path shows. The SMTP server is Debian's aiosmtpd, counting
// messages without parsing.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { BenchScenario } from '../scenario.js';
import { compareIssueCreation, postIssues } from '../issue-creation-load.js';

const WATCHERS = 10;
const ISSUES = 200;

const SINK = String.raw`
import sys
from aiosmtpd.controller import Controller
class Count:
    async def handle_DATA(self, server, session, envelope):
        sys.stdout.write('%d\n' % len(envelope.rcpt_tos))
        sys.stdout.flush()
        return '250 OK'
controller = Controller(Count(), hostname='127.0.0.1', port=int(sys.argv[1]))
controller.start()
sys.stdout.write('READY\n')
sys.stdout.flush()
sys.stdin.read()
controller.stop()
`;

// env() is synchronous and runs before anything else of the scenario: the sink starts there, on a
// port picked at random in a range the kernel does not hand out as ephemeral ports.
const port = 20_000 + Math.floor(Math.random() * 10_000);
let sink: ChildProcess | null = null;
let received = 0;
let ready: Promise<void> | null = null;

function startSink(): void {
  if (sink) return;
  const child = spawn('/usr/bin/python3', ['-c', SINK, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  sink = child;
  ready = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'READY') resolve();
      else received += Number(line);
    });
    child.once('exit', (code) => reject(new Error(`aiosmtpd exited with ${code}`)));
  });
  // Awaited later, in the scenario: a sink that dies first (python3-aiosmtpd missing) must fail the
  // scenario there, not end the whole run as an unhandled rejection.
  ready.catch(() => undefined);
}

async function waitForMail(count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (received < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return received >= count;
}

export const scenario: BenchScenario = {
  name: 'mail',
  env() {
    startSink();
    return { KILN_SMTP_URL: `smtp://127.0.0.1:${port}`, KILN_EMAIL_FROM: 'kiln@bench.example', KILN_WORKER_POLL_MS: '20' };
  },
  async seed(deps) {
    const { createUser } = await import('../../src/accounts/api.js');
    const { createProject } = await import('../../src/accounts/create-project.js');
    const { toAuthUser } = await import('../../src/accounts/api.js');
    const root = await deps.db.selectFrom('users').selectAll().where('username_lower', '=', 'root').executeTakeFirstOrThrow();
    const actor = { user: toAuthUser(root), scopes: ['api'], via: 'personal_access_token' as const, tokenId: null };
    const watched = await createProject(deps, actor, { name: 'watched' });
    const quiet = await createProject(deps, actor, { name: 'quiet' });
    const now = deps.clock.now();
    for (let i = 0; i < WATCHERS; i += 1) {
      const user = await createUser(deps, { username: `watcher${i}`, name: `Watcher ${i}`, email: `watcher${i}@bench.example` });
      await deps.db.insertInto('members').values({ source_type: 'Project', source_id: Number(watched.id), user_id: Number(user.id), access_level: 30, expires_at: null, created_by_id: Number(root.id), created_at: now, updated_at: now }).execute();
      await deps.db.insertInto('notification_settings').values({ user_id: Number(user.id), source_type: 'Project', source_id: Number(watched.id), level: 'watch', notification_email: null, new_note: null, new_issue: null, reopen_issue: null, close_issue: null, reassign_issue: null, issue_due: null, new_merge_request: null, push_to_merge_request: null, reopen_merge_request: null, close_merge_request: null, reassign_merge_request: null, merge_merge_request: null, failed_pipeline: null, fixed_pipeline: null, success_pipeline: null, new_epic: null, created_at: now, updated_at: now }).execute();
    }
    return { watchedId: Number(watched.id), quietId: Number(quiet.id) };
  },
  async targets() {
    return [];
  },
  async custom(server, seeded) {
    await ready;
    const watchedId = seeded.watchedId as number;
    // Delivery: a burst of new issues, each mailed to every watcher; timed from the first request
    // to the last message accepted by the SMTP server.
    const expected = received + ISSUES * WATCHERS;
    const started = Date.now();
    const statuses = await postIssues(server, watchedId, ISSUES);
    const accepted = statuses.filter((status) => status === 201).length;
    const complete = await waitForMail(expected, 120_000);
    const seconds = (Date.now() - started) / 1000;
    const mailsPerSecond = (ISSUES * WATCHERS) / seconds;

    // The request path with mail on and off, loaded alike.
    const load = await compareIssueCreation(server, seeded.quietId as number, watchedId);
    sink?.stdin?.end();
    sink?.kill();
    return [
      { name: `mail delivered (${ISSUES} issues × ${WATCHERS} watchers, from first request to last message at the SMTP server)`, value: Math.round(mailsPerSecond), unit: 'mails/s', target: '≥200 mails/s', pass: complete && accepted === ISSUES && mailsPerSecond >= 200 },
      { name: 'POST /api/v4/projects/:id/issues, nobody watching (mail off; median round)', value: Math.round(load.reference), unit: 'req/s', target: 'reference', pass: load.referenceErrors === 0 },
      {
        name: `POST /api/v4/projects/:id/issues, ${WATCHERS} watchers (mail on; interleaved rounds: ${load.ratios.map((r) => r.toFixed(2)).join(', ')})`,
        value: Math.round(load.measured),
        unit: 'req/s',
        baseline: Math.round(load.reference),
        target: '≥0.9× mail off',
        pass: load.ratio >= 0.9 && load.measuredErrors === 0,
      },
    ];
  },
};
