// The admin area's system hooks page in Chromium (issue 36): reached from the admin dashboard, a hook
// added through the form and tested against a loopback receiver (a push, then a repository update),
// the list, the edit form with its recent events and a delivery's page axe-clean
// at 1280 px and at 390 px, light and dark, without sideways scrolling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAsRoot } from './helpers/browser.js';
import { ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';

let kiln: KilnProcess;
let browser: Browser;
let receiver: HookReceiver;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  receiverUrl = `${receiver.url}/system-hook`;
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  await receiver?.close();
});

describe('/admin/hooks', () => {
  it('adds a system hook from the admin area and Test reaches the receiver', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signInAsRoot(page, kiln.url, ROOT_PASSWORD);
    await page.goto(`${kiln.url}/admin`);
    await Promise.all([page.waitForNavigation(), page.click('a:has-text("System hooks")')]);
    expect(page.url()).toBe(`${kiln.url}/admin/hooks`);
    await page.fill('input[name="url"]', receiverUrl);
    await page.fill('input[name="token"]', 'browser-secret');
    await page.check('input[name="push_events"]');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add system hook")')]);
    expect(await page.textContent('.flash')).toContain('System hook was successfully created.');
    expect(await page.textContent('#system-hooks')).toContain(receiverUrl);
    expect(await page.content()).not.toContain('browser-secret');
    await Promise.all([page.waitForNavigation(), page.click('#system-hooks button:has-text("Test")')]);
    expect(await page.textContent('.flash')).toContain('Hook executed successfully: HTTP 200');
    expect(received).toHaveLength(1);
    expect(received[0].headers['x-gitlab-event']).toBe('System Hook');
    expect(received[0].body).toMatchObject({ object_kind: 'push' }); // the first trigger offered: push events
    await page.selectOption('#system-hooks select[name="trigger"]', 'repository_update_events');
    await Promise.all([page.waitForNavigation(), page.click('#system-hooks button:has-text("Test")')]);
    expect(received[1].body).toMatchObject({ event_name: 'repository_update' });
    await context.close();
  });

  it('shows the list and the edit form axe-clean at 1280 and 390 px, light and dark, without sideways scrolling', async () => {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme });
        const page = await context.newPage();
        await signInAsRoot(page, kiln.url, ROOT_PASSWORD);
        await page.goto(`${kiln.url}/admin/hooks`);
        expect(await page.textContent('h1')).toBe('System hooks');
        expect(await overflowsSideways(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
        if (width === 390) await page.screenshot({ path: `test-results/admin-system-hooks-390-${colorScheme}.png`, fullPage: true });
        await Promise.all([page.waitForNavigation(), page.click('#system-hooks a:has-text("Edit")')]);
        expect(await page.textContent('h1')).toBe('Edit system hook');
        expect(await page.inputValue('input[name="url"]')).toBe(receiverUrl);
        expect(await page.textContent('#recent-events')).toContain('repository_update_hooks');
        expect(await overflowsSideways(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
        await Promise.all([page.waitForNavigation(), page.click('#recent-events a:has-text("View details")')]);
        expect(await page.textContent('h1')).toBe('Request details');
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      }
    }
  });
});
