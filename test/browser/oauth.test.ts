// OAuth and account pages in Debian's Chromium: sign in and approve consent, sign in with TOTP,
// register an application.
import { createServer, type Server } from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let callback: Server;
let callbackUrl: string;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  // The client application's redirect URI: a page that just says where the browser landed.
  callback = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end(`landed ${request.url}`));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const address = callback.address();
  callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await kiln?.stop();
});

async function signIn(page: import('playwright-core').Page, login: string, password: string) {
  await page.fill('#login', login);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
}

describe('OAuth in a browser', () => {
  it('signs in, approves the consent page and lands on the redirect URI with a code and the state', async () => {
    const app = await apiCall(kiln, 'POST', '/applications', { name: 'Browser Client', redirect_uri: callbackUrl, scopes: 'api read_user' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const authorize = `${kiln.url}/oauth/authorize?client_id=${app.application_id}&redirect_uri=${encodeURIComponent(callbackUrl)}&response_type=code&scope=read_user&state=browser-state`;
    await page.goto(authorize);
    expect(page.url()).toContain('/users/sign_in');
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.waitForSelector('text=Authorize Browser Client to use your account?');
    expect(await page.textContent('ul.scopes')).toContain('read_user');
    await page.click('button[value=approve]');
    await page.waitForURL(/\/callback\?/);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(await page.textContent('body')).toContain('landed /callback?code=');
    await context.close();
  });

  it('enrols in two-factor authentication, then signs in with a TOTP code', async () => {
    const password = 'tina-password-123';
    await apiCall(kiln, 'POST', '/users', { username: 'tina', name: 'Tina', email: 'tina@example.com', password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${kiln.url}/users/sign_in`);
    await signIn(page, 'tina', password);
    await page.waitForURL(`${kiln.url}/`);
    await page.goto(`${kiln.url}/profile/two_factor_auth`);
    expect(await page.locator('#otp-qr').isVisible()).toBe(true);
    const secret = (await page.textContent('#otp-secret'))!.trim();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await page.fill('#pin_code', totp.generate());
    await page.click('text=Register with two-factor app');
    await page.waitForSelector('#recovery-codes');
    // Sign out sits in the user menu of the top bar.
    await page.click('.user-menu summary');
    await page.click('text=Sign out');
    await page.waitForURL(/\/users\/sign_in/);
    await signIn(page, 'tina', password);
    await page.waitForSelector('#otp_attempt');
    await page.fill('#otp_attempt', totp.generate());
    await page.click('text=Verify code');
    await page.waitForURL(`${kiln.url}/`);
    expect(await page.textContent('header')).toContain('@tina');
    await context.close();
  });

  it('registers an application and sees its Application ID', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${kiln.url}/profile/applications`);
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.waitForURL(`${kiln.url}/profile/applications`);
    await page.fill('#name', 'Registered in a browser');
    await page.fill('#redirect_uri', 'https://app.example/callback\nhttp://127.0.0.1/loopback');
    await page.check('input[name="scopes[]"][value="read_user"]');
    await page.click('text=Save application');
    await page.waitForSelector('#application_id');
    const uid = (await page.textContent('#application_id'))!.trim();
    expect(uid).toMatch(/^[0-9a-f]{64}$/);
    expect((await page.textContent('#secret'))!.trim()).toMatch(/^[0-9a-f]{64}$/);
    const listed = await apiCall(kiln, 'GET', '/applications');
    expect(listed.find((app: { application_id: string }) => app.application_id === uid)).toMatchObject({ application_name: 'Registered in a browser', callback_url: 'https://app.example/callback\nhttp://127.0.0.1/loopback' });
    await context.close();
  });
});
