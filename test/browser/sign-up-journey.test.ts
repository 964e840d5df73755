// Journey 1 of issue 36 up to the confirmed address, in Chromium: a visitor registers from the
// sign-in page, an administrator approves the sign-up in the admin area, and under
// email_confirmation_setting `soft` the new user signs in unconfirmed, sees the banner, asks for a
// new link and confirms the address with the link read from a real SMTP server. The banner is
// axe-clean at 1280 px light and 390 px dark, and fits 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot, signInAs } from './helpers/browser.js';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { SmtpTestServer, type ReceivedMail } from '../helpers/smtp-server.js';

let kiln: KilnProcess;
let smtp: SmtpTestServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await SmtpTestServer.start();
  kiln = await startKilnProcess({ dataDir: mkdtempSync(join(tmpdir(), 'kiln-browser-sign-up-')), env: { KILN_SMTP_URL: smtp.url } });
  browser = await launchBrowser();
  await apiCall(kiln, 'PUT', '/application/settings', { signup_enabled: true, require_admin_approval_after_user_signup: true, email_confirmation_setting: 'soft' });
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  await smtp?.stop();
});

const PASSWORD = 'newcomer-password-1';

/** The latest confirmation link mailed to `address`, once `count` messages in all have arrived. */
async function confirmationLink(count: number, address: string): Promise<string> {
  const mails: ReceivedMail[] = await smtp.waitFor(count);
  const links = mails.filter((mail) => mail.rcptTos.includes(address)).map((mail) => /(http:\/\/\S+\/users\/confirmation\?confirmation_token=[0-9a-f]+)/.exec(mail.text ?? '')?.[1]).filter(Boolean);
  expect(links.length).toBeGreaterThan(0);
  return links.at(-1)!;
}

async function bannerOk(page: Page): Promise<void> {
  expect(await page.textContent('.confirmation-banner')).toContain('newcomer@example.com');
  expect(await seriousViolations(page)).toEqual([]);
}

describe('a visitor signing up under soft confirmation', () => {
  it('registers, is approved in the admin area, signs in unconfirmed with the banner, resends and confirms', async () => {
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await visitor.goto(`${kiln.url}/users/sign_in`);
    await Promise.all([visitor.waitForNavigation(), visitor.click('a:has-text("Register now")')]);
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.fill('#name', 'New Comer');
    await visitor.fill('#username', 'newcomer');
    await visitor.fill('#email', 'newcomer@example.com');
    await visitor.fill('#password', PASSWORD);
    await Promise.all([visitor.waitForNavigation(), visitor.click('button:has-text("Register")')]);
    expect(await visitor.textContent('.flash')).toContain('awaiting approval');

    // The administrator is mailed, and approves from the user's admin page.
    const { page: admin } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 } });
    await admin.goto(`${kiln.url}/admin/users/newcomer`);
    await Promise.all([admin.waitForNavigation(), admin.click('button:has-text("Approve")')]);
    expect(await admin.textContent('.flash')).toContain('Successfully approved');

    // The approval mail carries the link; under soft the account signs in before following it.
    const firstLink = await confirmationLink(3, 'newcomer@example.com');
    await signInAs(visitor, kiln.url, 'newcomer', PASSWORD);
    expect(await visitor.textContent('header')).toContain('@newcomer');
    await bannerOk(visitor);
    await Promise.all([visitor.waitForNavigation(), visitor.click('.confirmation-banner button:has-text("Resend confirmation e-mail")')]);
    expect(await visitor.textContent('.flash')).toContain('you will receive an email');
    const secondLink = await confirmationLink(4, 'newcomer@example.com');
    expect(secondLink).not.toBe(firstLink);
    await visitor.screenshot({ path: 'test-results/sign-up-soft-banner.png', fullPage: true });

    // 390 px, dark: the banner and its button fit.
    const narrow = await (await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' })).newPage();
    await signInAs(narrow, kiln.url, 'newcomer', PASSWORD);
    await bannerOk(narrow);
    expect(await overflowsSideways(narrow)).toBe(false);
    await narrow.screenshot({ path: 'test-results/sign-up-soft-banner-390-dark.png', fullPage: true });

    // The newest link confirms the address; the banner is gone.
    await visitor.goto(secondLink);
    expect(await visitor.textContent('.flash')).toContain('successfully confirmed');
    await visitor.goto(`${kiln.url}/`);
    expect(await visitor.$('.confirmation-banner')).toBeNull();
  }, 180_000);
});
