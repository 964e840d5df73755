// Notification e-mail with a started `kiln serve` and a real SMTP server (aiosmtpd): python-gitlab's
// issue subscribe()/unsubscribe(), and kill -9 during a burst of issues: every committed issue's mail
// arrives (at least once) after a restart, and no mail names an issue that was not committed.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';
import { SmtpTestServer, header } from '../helpers/smtp-server.js';

const processes: KilnProcess[] = [];
let smtp: SmtpTestServer | null = null;
afterAll(async () => {
  for (const kiln of processes) await kiln.stop().catch(() => undefined);
  await smtp?.stop();
});

async function start(dataDir: string, rootToken?: string): Promise<KilnProcess> {
  const kiln = await startKilnProcess({ dataDir, rootToken, // A job claimed when the server died runs again once its lease expires: short here, 5 minutes by default.
    env: { KILN_SMTP_URL: smtp!.url, KILN_EMAIL_FROM: 'kiln@kiln.test', KILN_JOB_LEASE_MS: '3000' } });
  processes.push(kiln);
  return kiln;
}

/** A user watching the project, with the root token acting as them (Sudo). */
async function watcher(kiln: KilnProcess, projectId: number, username: string): Promise<void> {
  const user = await apiCall(kiln, 'POST', '/users', { username, name: username, email: `${username}@example.com`, password: `${username}-password-1` });
  await apiCall(kiln, 'POST', `/projects/${projectId}/members`, { user_id: user.id, access_level: 30 });
  const response = await fetch(`${kiln.url}/api/v4/projects/${projectId}/notification_settings`, {
    method: 'PUT',
    headers: { 'private-token': kiln.rootToken, sudo: username, 'content-type': 'application/json' },
    body: JSON.stringify({ level: 'watch' }),
  });
  expect(response.status).toBe(200);
}

describe('python-gitlab', () => {
  it('issue.subscribe() and issue.unsubscribe(), with GitlabSubscribeError / GitlabUnsubscribeError on 304', async () => {
    smtp ??= await SmtpTestServer.start();
    const kiln = await start(mkdtempSync(join(tmpdir(), 'kiln-mail-py-')));
    const { stdout } = await runPython(String.raw`
import json, os
import gitlab
gl = gitlab.Gitlab(os.environ["KILN_URL"], private_token=os.environ["KILN_TOKEN"])
project = gl.projects.create({"name": "mail", "path": "mail"})
issue = project.issues.create({"title": "Subscribe with python"})
out = {}
issue.unsubscribe()
out["after_unsubscribe"] = issue.subscribed
try:
    issue.unsubscribe()
    out["second_unsubscribe"] = "no error"
except gitlab.exceptions.GitlabUnsubscribeError as error:
    out["second_unsubscribe"] = error.response_code
issue.subscribe()
out["after_subscribe"] = issue.subscribed
try:
    issue.subscribe()
    out["second_subscribe"] = "no error"
except gitlab.exceptions.GitlabSubscribeError as error:
    out["second_subscribe"] = error.response_code
print(json.dumps(out))
`, { KILN_URL: kiln.url, KILN_TOKEN: kiln.rootToken });
    expect(JSON.parse(stdout)).toEqual({ after_unsubscribe: false, second_unsubscribe: 304, after_subscribe: true, second_subscribe: 304 });
  }, 60_000);
});

describe('kill -9 of kiln serve during a burst of issues', () => {
  it('delivers the mail of every committed issue after a restart, and none for an issue that was not committed', async () => {
    smtp ??= await SmtpTestServer.start();
    smtp.clear();
    const first = await start(mkdtempSync(join(tmpdir(), 'kiln-mail-kill9-')));
    const project = await apiCall(first, 'POST', '/projects', { name: 'burst', path: 'burst' });
    await watcher(first, project.id, 'mailwatcher');

    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const sender = async (worker: number) => {
      while (!stop) {
        const title = `burst ${worker}-${sent++}`;
        try {
          const response = await fetch(`${first.url}/api/v4/projects/${project.id}/issues`, { method: 'POST', headers: { 'private-token': first.rootToken, 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
          if (response.status === 201) acknowledged.push(title);
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: 6 }, (_, i) => sender(i));
    while (acknowledged.length < 100) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.kill9();
    stop = true;
    await Promise.all(senders);
    const beforeRestart = smtp.messages.length;

    const second = await start(first.dataDir, first.rootToken);
    const stored = new Set<string>();
    for (let page = 1; ; page += 1) {
      const rows = await apiCall(second, 'GET', `/projects/${project.id}/issues?state=all&per_page=100&page=${page}`);
      for (const row of rows) stored.add(row.title);
      if (rows.length < 100) break;
    }
    for (const title of acknowledged) expect(stored.has(title)).toBe(true);
    const titleOf = (subject: string) => /^burst \| (.+) \(#\d+\)$/.exec(subject)?.[1];
    const deadline = Date.now() + 60_000;
    let mailed = new Set<string>();
    while (Date.now() < deadline) {
      mailed = new Set(smtp.messages.filter((mail) => mail.rcptTos.includes('mailwatcher@example.com')).map((mail) => titleOf(header(mail, 'Subject') ?? '')!));
      if ([...stored].every((title) => mailed.has(title))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect([...stored].filter((title) => !mailed.has(title))).toEqual([]);
    expect([...mailed].filter((title) => !stored.has(title))).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);
    expect(beforeRestart).toBeLessThanOrEqual(smtp.messages.length);
  }, 180_000);
});
