// `npm run bench -- webhooks` (issue 18): webhook deliveries per second to a loopback receiver, from a
// burst of new issues on a project with 20 hooks (each issue: one delivery job for 20 hooks), timed
// from the first request to the last delivery received; and issue creation with the hooks on against
// a project with none, in interleaved rounds, so the cost on the request path shows (a slow receiver
// must never slow the request).
import { createServer, type Server } from 'node:http';
import type { BenchScenario } from '../scenario.js';
import { compareIssueCreation, postIssues } from '../issue-creation-load.js';

const HOOKS = 20;
const ISSUES = 100;

const port = 30_000 + Math.floor(Math.random() * 10_000);
let receiver: Server | null = null;
let received = 0;

function startReceiver(): void {
  if (receiver) return;
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end('ok');
    });
  });
  receiver.keepAliveTimeout = 30_000;
  receiver.listen(port, '127.0.0.1');
}

async function waitForDeliveries(count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (received < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return received >= count;
}

export const scenario: BenchScenario = {
  name: 'webhooks',
  env() {
    startReceiver();
    return { KILN_WORKER_POLL_MS: '20' };
  },
  async seed(deps) {
    const { toAuthUser } = await import('../../src/accounts/api.js');
    const { createProject } = await import('../../src/accounts/create-project.js');
    const { createHook } = await import('../../src/webhooks/save-hook.js');
    const now = deps.clock.now();
    await deps.db.insertInto('application_settings').values({ name: 'allow_local_requests_from_web_hooks_and_services', value: 'true', created_at: now, updated_at: now }).execute();
    const root = await deps.db.selectFrom('users').selectAll().where('username_lower', '=', 'root').executeTakeFirstOrThrow();
    const actor = { user: toAuthUser(root), scopes: ['api'], via: 'personal_access_token' as const, tokenId: null };
    const hooked = await createProject(deps, actor, { name: 'hooked' });
    const quiet = await createProject(deps, actor, { name: 'quiet' });
    for (let i = 0; i < HOOKS; i += 1) {
      await createHook(deps, { type: 'ProjectHook', projectId: Number(hooked.id) }, { url: `http://127.0.0.1:${port}/hook/${i}`, token: `t${i}`, flags: { issues_events: true, push_events: false } });
    }
    return { hookedId: Number(hooked.id), quietId: Number(quiet.id) };
  },
  async targets() {
    return [];
  },
  async custom(server, seeded) {
    const hookedId = seeded.hookedId as number;
    const expected = received + ISSUES * HOOKS;
    const started = Date.now();
    const statuses = await postIssues(server, hookedId, ISSUES);
    const accepted = statuses.filter((status) => status === 201).length;
    const complete = await waitForDeliveries(expected, 120_000);
    const seconds = (Date.now() - started) / 1000;
    const perSecond = (ISSUES * HOOKS) / seconds;

    const load = await compareIssueCreation(server, seeded.quietId as number, hookedId);
    receiver?.close();
    return [
      { name: `webhook deliveries (${ISSUES} issues × ${HOOKS} hooks, from first request to last delivery at a loopback receiver)`, value: Math.round(perSecond), unit: 'deliveries/s', target: '≥1000 deliveries/s', pass: complete && accepted === ISSUES && perSecond >= 1000 },
      { name: 'POST /api/v4/projects/:id/issues, no hooks (median round)', value: Math.round(load.reference), unit: 'req/s', target: 'reference', pass: load.referenceErrors === 0 },
      {
        name: `POST /api/v4/projects/:id/issues, ${HOOKS} hooks (one delivery job per issue; interleaved rounds: ${load.ratios.map((r) => r.toFixed(2)).join(', ')})`,
        value: Math.round(load.measured),
        unit: 'req/s',
        baseline: Math.round(load.reference),
        target: '≥0.9× no hooks',
        pass: load.ratio >= 0.9 && load.measuredErrors === 0,
      },
    ];
  },
};
