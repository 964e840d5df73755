// The SSH keys page (/profile/keys) in Chromium: add a key and remove it through the forms, with no
// serious or critical axe-core violations, at 390 px without sideways scrolling, in a dark theme too;
// and the instance configuration page with the host key fingerprints; the GPG keys page likewise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ed25519PublicKey, rsaPublicKey } from '../helpers/ssh.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from './helpers/browser.js';
import { startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function violationsOf(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes)`);
  });
}

async function signIn(page: Page): Promise<void> {
  await signInAs(page, kiln.url, 'root', ROOT_PASSWORD);
}

const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('/profile/keys', () => {
  it('adds a key with the form, shows it, refuses a bad one, and removes it', async () => {
    const page = await browser.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/profile/keys`);
    expect(await violationsOf(page)).toEqual([]);
    const key = ed25519PublicKey('root@laptop');
    await page.fill('#key', key);
    await page.fill('#title', 'Laptop');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add key")')]);
    expect(await page.textContent('body')).toContain('The SSH key was added.');
    expect(await page.textContent('.key-item h3')).toBe('Laptop');
    await page.fill('#key', 'ssh-ed25519 AAAAnotakey');
    await page.fill('#title', 'Broken');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add key")')]);
    expect(await page.textContent('[role=alert]')).toContain('cannot be generated');
    expect(await page.inputValue('#title')).toBe('Broken');
    await page.goto(`${kiln.url}/profile/keys`);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Remove")')]);
    expect(await page.textContent('body')).toContain('The SSH key was removed.');
    expect(await page.locator('.key-item').count()).toBe(0);
    await page.close();
  });

  it('at 390 px wide and in a dark theme: no sideways scrolling, no serious axe violations', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/profile/keys`);
    const key = rsaPublicKey(2048, 'a-very-long-comment-that-would-not-fit@a-very-long-host-name.example.com');
    await page.fill('#key', key);
    await page.fill('#title', 'A key with a long title that has to wrap somewhere on a phone screen');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add key")')]);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await violationsOf(page)).toEqual([]);
    await page.goto(`${kiln.url}/help/instance_configuration`);
    expect(await page.textContent('body')).toContain('SHA256:');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await violationsOf(page)).toEqual([]);
    await context.close();
  });
});

describe('/profile/gpg_keys', () => {
  it('adds and removes a key; at 390 px in a dark theme no sideways scrolling and no serious axe violations', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kiln-gpg-page-'));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GNUPGHOME: home };
    execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'Root With A Rather Long Name <root-with-a-long-address@a-very-long-host-name.example.com>', 'ed25519', 'sign', 'never'], { env, stdio: 'ignore' });
    const key = execFileSync('gpg', ['--armor', '--export'], { env, encoding: 'utf8' });
    rmSync(home, { recursive: true, force: true });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/profile/gpg_keys`);
    expect(await violationsOf(page)).toEqual([]);
    await page.fill('#key', key);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add key")')]);
    expect(await page.textContent('body')).toContain('The GPG key was added.');
    expect(await page.textContent('.key-item')).toContain('root-with-a-long-address@a-very-long-host-name.example.com');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await violationsOf(page)).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Remove")')]);
    expect(await page.textContent('body')).toContain('The GPG key was removed.');
    await context.close();
  });
});
