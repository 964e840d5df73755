// The List-Unsubscribe link of a notification e-mail, opened in Debian's Chromium without signing
// in: the page names the issue, its button unsubscribes, and the next comment is not mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { SmtpTestServer, header } from '../helpers/smtp-server.js';

let kiln: KilnProcess;
let smtp: SmtpTestServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  kiln = await startKilnProcess({ dataDir: mkdtempSync(join(tmpdir(), 'kiln-browser-mail-')), env: { KILN_SMTP_URL: smtp.url } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  await smtp?.stop();
});

describe('the unsubscribe link of an issue e-mail in a browser', () => {
  it('unsubscribes without signing in, and the next comment is not mailed', async () => {
    const user = await apiCall(kiln, 'POST', '/users', { username: 'rita', name: 'Rita', email: 'rita@example.com', password: 'rita-password-1' });
    const token = (await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'browser', scopes: ['api'] })).token;
    const project = await apiCall(kiln, 'POST', '/projects', { name: 'shop', path: 'shop' });
    await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: user.id, access_level: 30 });
    const issue = await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Checkout is slow' }, token);
    // The first comment comes from someone who has turned notifications off: the new-issue job may run
    // after it and count its author as a participant, and only a disabled level keeps that quiet.
    const carl = await apiCall(kiln, 'POST', '/users', { username: 'carl', name: 'Carl', email: 'carl@example.com', password: 'carl-password-1' });
    const carlToken = (await apiCall(kiln, 'POST', `/users/${carl.id}/personal_access_tokens`, { name: 'browser', scopes: ['api'] })).token;
    await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: carl.id, access_level: 30 });
    await apiCall(kiln, 'PUT', '/notification_settings', { level: 'disabled' }, carlToken);
    await apiCall(kiln, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Looking into it' }, carlToken);
    const [mail] = await smtp.waitFor(1);
    expect(mail.rcptTos).toEqual(['rita@example.com']);
    const link = /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe')!)![1];

    const page = await (await browser.newContext()).newPage();
    expect(link.startsWith(`${kiln.url}/-/notifications/unsubscribe/`)).toBe(true);
    await page.goto(link);
    expect(await page.textContent('main')).toContain(`root/shop#${issue.iid}`);
    await page.click('#unsubscribe');
    await page.waitForSelector('#unsubscribed');
    expect(await page.textContent('#unsubscribed')).toContain('You have been unsubscribed');

    smtp.clear();
    await apiCall(kiln, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Still slow?' });
    await apiCall(kiln, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Tell @rita' });
    // The mention still reaches her (an unsubscription silences all but mentions); the comment before it did not.
    const [mention] = await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages).toHaveLength(1);
    expect(mention.text).toContain('Tell @rita');
  }, 60_000);
});
