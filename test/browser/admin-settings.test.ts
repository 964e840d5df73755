// The admin area's settings and broadcast messages in Chromium (issue 36, journey 3): the administrator
// allows webhooks to one loopback address on the settings page, then a project webhook to a receiver
// on that address is delivered; a broadcast message made on its page is shown as a banner to a visitor
// and dismissed. Every page axe-clean at 1280 px light and 390 px dark without sideways scrolling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAsRoot } from './helpers/browser.js';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let receiver: Server;
const received: Array<{ event: string | undefined; body: string }> = [];

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  mkdirSync('test-results', { recursive: true });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ event: request.headers['x-gitlab-event'] as string | undefined, body });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const signIn = (page: Page) => signInAsRoot(page, kiln.url, ROOT_PASSWORD);

async function checkLayouts(path: string, check: (page: Page) => Promise<void> = async () => undefined): Promise<void> {
  for (const [width, height, colorScheme] of [[1280, 900, 'light'], [390, 844, 'dark']] as const) {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}${path}`);
    await check(page);
    expect(await overflowsSideways(page), `${path} at ${width}px`).toBe(false);
    expect(await seriousViolations(page), `${path} at ${width}px ${colorScheme}`).toEqual([]);
    await page.screenshot({ path: `test-results/admin${path.replace(/\//g, '-')}-${width}-${colorScheme}.png`, fullPage: true });
    await context.close();
  }
}

describe('journey 3: local webhooks allowed for one address on the settings page', () => {
  it('refuses the loopback hook, allows it after the setting, and the receiver gets the event', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const project = await apiCall(kiln, 'POST', '/projects', { name: 'hooked', visibility: 'private' });
    const hookUrl = `http://127.0.0.1:${port}/hook`;
    const refused = await fetch(`${kiln.url}/api/v4/projects/${project.id}/hooks`, {
      method: 'POST', headers: { 'private-token': kiln.rootToken, 'content-type': 'application/json' }, body: JSON.stringify({ url: hookUrl, issues_events: true }),
    });
    expect(refused.status).toBe(422);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/admin`);
    await Promise.all([page.waitForNavigation(), page.click('a:has-text("Settings")')]);
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a:has-text("Network")')]);
    expect(page.url()).toBe(`${kiln.url}/admin/application_settings/network`);
    // A typo first: the error is shown beside the field and the text is kept.
    await page.fill('#outbound_local_requests_whitelist', '127.0.0.1\n<bad>');
    await Promise.all([page.waitForNavigation(), page.click('#outbound button:has-text("Save changes")')]);
    expect(await page.textContent('#outbound_local_requests_whitelist-error')).toContain('entries cannot contain HTML tags');
    expect(await page.inputValue('#outbound_local_requests_whitelist')).toBe('127.0.0.1\n<bad>');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#outbound_local_requests_whitelist', '127.0.0.1');
    await Promise.all([page.waitForNavigation(), page.click('#outbound button:has-text("Save changes")')]);
    expect(await page.textContent('.flash')).toContain('Outbound requests: application settings saved.');
    expect(await page.isChecked('#allow_local_requests_from_web_hooks_and_services')).toBe(false);
    await page.screenshot({ path: 'test-results/admin-settings-network-saved.png', fullPage: true });
    await context.close();

    const hook = await apiCall(kiln, 'POST', `/projects/${project.id}/hooks`, { url: hookUrl, issues_events: true });
    expect(hook.id).toBeGreaterThan(0);
    await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ping the receiver' });
    const tested = await fetch(`${kiln.url}/api/v4/projects/${project.id}/hooks/${hook.id}/test/issues_events`, { method: 'POST', headers: { 'private-token': kiln.rootToken } });
    expect(tested.status).toBe(201);
    expect(received.some((delivery) => delivery.event === 'Issue Hook')).toBe(true);
  });

  it('shows the settings tabs axe-clean, light and wide, then dark at 390 px', async () => {
    await checkLayouts('/admin/application_settings/general', async (page) => expect(await page.textContent('h1')).toBe('General settings'));
    await checkLayouts('/admin/application_settings/network');
    await checkLayouts('/admin/application_settings/preferences');
  });
});

describe('broadcast messages', () => {
  it('are made on the admin page, shown to a visitor as a banner and dismissed', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/admin/broadcast_messages`);
    await page.fill('#message', 'Maintenance on **Sunday** <img src=x onerror=alert(1)>');
    await page.selectOption('#theme', 'light-blue');
    await page.check('#dismissable');
    await page.fill('#starts_at', '2020-01-01T00:00');
    await page.fill('#ends_at', '2999-01-01T00:00');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add broadcast message")')]);
    expect(await page.textContent('.flash')).toContain('The broadcast message was created.');
    await context.close();
    await apiCall(kiln, 'POST', '/broadcast_messages', { message: 'A [notification](https://example.com/)', broadcast_type: 'notification', theme: 'dark', starts_at: '2020-01-01T00:00:00Z', ends_at: '2999-01-01T00:00:00Z' });

    await checkLayouts('/admin/broadcast_messages', async (shown) => {
      expect(await shown.textContent('.broadcast-banners')).toContain('Maintenance on Sunday');
    });

    for (const [width, height, colorScheme] of [[1280, 900, 'light'], [390, 844, 'dark']] as const) {
      const visitorContext = await browser.newContext({ viewport: { width, height }, colorScheme });
      const visitor = await visitorContext.newPage();
      let alerted = false;
      visitor.on('dialog', async (dialog) => {
        alerted = true;
        await dialog.dismiss();
      });
      await visitor.goto(`${kiln.url}/users/sign_in`);
      expect(await visitor.textContent('.broadcast-banners strong')).toBe('Sunday');
      expect(await visitor.locator('.broadcast-banners img').count()).toBe(0);
      expect(await visitor.textContent('.broadcast-notifications')).toContain('A notification');
      expect(await overflowsSideways(visitor)).toBe(false);
      expect(await seriousViolations(visitor)).toEqual([]);
      await visitor.screenshot({ path: `test-results/broadcast-banner-${width}-${colorScheme}.png`, fullPage: true });
      // htmx removes the banner in place; after a reload it stays dismissed (the cookie).
      await visitor.click('.broadcast-banners button:has-text("Dismiss")');
      await visitor.waitForSelector('.broadcast-banners .broadcast-message', { state: 'detached' });
      expect(visitor.url()).toBe(`${kiln.url}/users/sign_in`);
      await visitor.reload();
      expect(await visitor.locator('.broadcast-banners').count()).toBe(0);
      expect(await visitor.locator('.broadcast-notifications').count()).toBe(1);
      expect(alerted).toBe(false);
      await visitorContext.close();
    }
  });
});
