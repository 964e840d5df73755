// A forgotten password in Chromium (issue 36): the sign-in page's link, the request form, the link
// read from a real SMTP server, the new password, signing in with it; the pages axe-clean at 1280 px
// light and 390 px dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { SmtpTestServer } from '../helpers/smtp-server.js';

let kiln: KilnProcess;
let smtp: SmtpTestServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  kiln = await startKilnProcess({ dataDir: mkdtempSync(join(tmpdir(), 'kiln-browser-reset-')), env: { KILN_SMTP_URL: smtp.url } });
  browser = await launchBrowser();
  await apiCall(kiln, 'POST', '/users', { username: 'jane', name: 'Jane', email: 'jane@example.com', password: 'jane-password-1' });
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  await smtp?.stop();
});

async function ask(page: Page, email: string): Promise<void> {
  await page.goto(`${kiln.url}/users/sign_in`);
  await Promise.all([page.waitForNavigation(), page.click('a:has-text("Forgot your password?")')]);
  await page.fill('#email', email);
  await Promise.all([page.waitForNavigation(), page.click('button:has-text("Reset password")')]);
}

describe('a forgotten password', () => {
  it('is replaced through the mailed link, which then stops working', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await ask(page, 'nobody@example.com');
    const unknownAnswer = await page.textContent('.flash');
    await ask(page, 'jane@example.com');
    expect(await page.textContent('.flash')).toBe(unknownAnswer);
    expect(await seriousViolations(page)).toEqual([]);
    const [mail] = await smtp.waitFor(1);
    expect(mail.rcptTos).toEqual(['jane@example.com']);
    const link = /(http:\/\/\S+\/users\/password\/edit\?reset_password_token=[A-Za-z0-9_-]+)/.exec(mail.text!)![1];

    await page.goto(link);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#password', 'jane-password-2');
    await page.fill('#password_confirmation', 'jane-password-2');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Change your password")')]);
    expect(await page.textContent('.flash')).toContain('Your password has been changed successfully.');
    await page.fill('#login', 'jane');
    await page.fill('#password', 'jane-password-2');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
    expect(await page.textContent('header')).toContain('@jane');

    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    expect(again.url()).toContain('/users/password/new');
    expect(await again.textContent('.flash')).toContain('invalid or has expired');
  });

  it('at 390 px in a dark browser: the forms fit and are axe-clean', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${kiln.url}/users/password/new`);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    // Another account: jane was mailed less than a minute ago, and an account is mailed once a minute.
    await apiCall(kiln, 'POST', '/users', { username: 'kate', name: 'Kate', email: 'kate@example.com', password: 'kate-password-1' });
    smtp.clear();
    await ask(page, 'kate@example.com');
    const [mail] = await smtp.waitFor(1);
    await page.goto(/(http:\/\/\S+reset_password_token=[A-Za-z0-9_-]+)/.exec(mail.text!)![1]);
    await page.fill('#password', 'short');
    await page.fill('#password_confirmation', 'short');
    await page.evaluate(() => document.querySelector('#password')!.removeAttribute('minlength'));
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Change your password")')]);
    expect(await page.textContent('#password-error')).toContain('too short');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/password-reset-390-dark.png', fullPage: true });
    await context.close();
  });
});
