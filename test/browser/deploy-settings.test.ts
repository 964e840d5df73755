// The deploy keys and deploy tokens settings pages in Chromium: a deploy key added with write
// permission and made read-only, a project token created (shown once) and revoked, at 1280 px in the
// light theme; at 390 px in a dark theme a long key title and a group token with a long user name,
// with no sideways scrolling. No serious or critical axe-core violations on any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ed25519PublicKey, rsaPublicKey } from '../helpers/ssh.js';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  await apiCall(kiln, 'POST', '/projects', { name: 'deployed', path: 'deployed' });
  await apiCall(kiln, 'POST', '/groups', { name: 'deployers', path: 'deployers' });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const signedIn = (options: Parameters<Browser['newContext']>[0]) => signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, options);

const submit = (page: Page, selector: string) => Promise.all([page.waitForNavigation(), page.click(selector)]);

describe('deploy settings pages at 1280 px, light', () => {
  it('adds a deploy key with write permission, makes it read-only; creates and revokes a project token', async () => {
    const { context, page } = await signedIn({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto(`${kiln.url}/root/deployed/-/settings/repository`);
    await submit(page, 'a:has-text("deploy keys")');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#deploy-key-title', 'Build server');
    await page.fill('#deploy-key-key', ed25519PublicKey('build@ci'));
    await page.check('input[name=can_push]');
    await submit(page, 'button:has-text("Add key")');
    expect(await page.textContent('body')).toContain('The deploy key was added.');
    expect(await page.textContent('[data-deploy-key] .muted')).toContain('Read and write');
    expect(await seriousViolations(page)).toEqual([]);
    await submit(page, 'button:has-text("Make read-only")');
    expect(await page.textContent('[data-deploy-key] .muted')).toContain('Read-only');

    await page.goto(`${kiln.url}/root/deployed/-/deploy_tokens`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#deploy-token-name', 'Release job');
    await page.check('input[value=read_repository]');
    await page.check('input[value=write_repository]');
    await submit(page, 'button:has-text("Create deploy token")');
    expect(await page.inputValue('#new-deploy-token')).toMatch(/^gldt-/);
    expect(await page.inputValue('#new-deploy-token-username')).toMatch(/^gitlab\+deploy-token-\d+$/);
    expect(await page.textContent('#deploy-tokens')).toContain('read_repository, write_repository');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${kiln.url}/root/deployed/-/deploy_tokens`);
    expect(await page.locator('#new-deploy-token').count()).toBe(0);
    // Revoking asks first (data-confirm).
    page.once('dialog', (dialog) => void dialog.accept());
    await submit(page, 'button:has-text("Revoke")');
    expect(await page.textContent('body')).toContain('The deploy token was revoked.');
    expect(await page.locator('#deploy-tokens').count()).toBe(0);
    await context.close();
  });
});

describe('deploy settings pages at 390 px, dark', () => {
  it('a long key title and a group token with a long user name: no sideways scrolling, no serious axe violations', async () => {
    const { context, page } = await signedIn({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto(`${kiln.url}/root/deployed/-/deploy_keys`);
    await page.fill('#deploy-key-title', 'A deploy key with a long title that has to wrap somewhere on a phone screen');
    await page.fill('#deploy-key-key', rsaPublicKey(2048, 'a-very-long-comment-that-would-not-fit@a-very-long-host-name.example.com'));
    await submit(page, 'button:has-text("Add key")');
    expect(await page.textContent('body')).toContain('The deploy key was added.');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${kiln.url}/groups/deployers/-/deploy_tokens`);
    await page.fill('#deploy-token-name', 'Mirror of every project in the group');
    await page.fill('#deploy-token-username', 'a-rather-long-deploy-token-user-name-for-the-mirror');
    await page.check('input[value=read_repository]');
    await submit(page, 'button:has-text("Create deploy token")');
    expect(await page.inputValue('#new-deploy-token')).toMatch(/^gldt-/);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
