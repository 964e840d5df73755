// Debian's Chromium driven by playwright-core, headless, never downloading a browser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.KILN_CHROMIUM ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page, as `id (impact, n nodes)`. Every rule runs;
 * `resultTypes` only spares axe collecting each passing and inapplicable node, which nothing reads
 * (on the blame page's four looks, 18.8 → 15.5 s of axe).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes)`);
  });
}

/** Whether the page scrolls sideways (it should not, down to 390 px). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** A new browser context signed in as root through the sign-in form (the password `startKilnProcess` sets). */
export async function signedInAsRoot(browser: Browser, url: string, password: string, options: Parameters<Browser['newContext']>[0]): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await signInAsRoot(page, url, password);
  return { context, page };
}

/** Signs `page` in as root through the sign-in form. */
export async function signInAsRoot(page: Page, url: string, password: string): Promise<void> {
  await signInAs(page, url, 'root', password);
}

/** Signs `page` in as `login` through the sign-in form, waiting for the page it lands on. */
export async function signInAs(page: Page, url: string, login: string, password: string): Promise<void> {
  await page.goto(`${url}/users/sign_in`);
  await page.fill('#login', login);
  await page.fill('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
}
