// The diff view in Chromium under Kiln's Content-Security-Policy (issue 35): htmx runs from Kiln's
// own assets without eval or inline styles, an expander swaps hidden lines in, a collapsed file
// loads its body when opened, and the page is axe-clean in the light and the dark theme.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LONG = Array.from({ length: 80 }, (_, index) => `const value${index + 1} = ${index + 1};`);

let kiln: KilnProcess;
let browser: Browser;
let commitId: string;

beforeAll(async () => {
  kiln = await startKilnProcess();
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Diffs', path: 'diffs' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main', commit_message: 'Add',
    actions: [{ action: 'create', file_path: 'src/values.ts', content: `${LONG.join('\n')}\n` }, { action: 'create', file_path: 'big.txt', content: `${'a'.repeat(100)}\n`.repeat(300) }],
  });
  const changed = [...LONG];
  changed[39] = 'const value40 = "changed";';
  const change = await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main', commit_message: 'Change',
    actions: [{ action: 'update', file_path: 'src/values.ts', content: `${changed.join('\n')}\n` }, { action: 'update', file_path: 'big.txt', content: `${'b'.repeat(100)}\n`.repeat(300) }],
  });
  commitId = change.id;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function signIn(page: Page) {
  await signInAs(page, kiln.url, 'root', ROOT_PASSWORD);
}

async function violationsOf(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

describe('the diff view in Chromium', () => {
  it('expands hidden lines and loads a collapsed file with htmx, with no CSP violation', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // The favicon's 404 is reported here without its address; other failures by the listener below.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page);
    await page.goto(`${kiln.url}/root/diffs/-/commit/${commitId}`);
    await page.waitForFunction(() => (window as unknown as { htmx?: unknown }).htmx !== undefined);
    const before = await page.locator('section[data-path="src/values.ts"] tr[id]').count();
    await page.click('section[data-path="src/values.ts"] a:has-text("Show 36 hidden lines")');
    await page.waitForFunction((count) => document.querySelectorAll('section[data-path="src/values.ts"] tr[id]').length > count, before);
    expect(await page.locator('section[data-path="src/values.ts"] td.line', { hasText: 'value1 = 1;' }).count()).toBe(1);
    await page.click('section[data-path="big.txt"] summary');
    await page.waitForSelector('section[data-path="big.txt"] table.diff');
    await page.screenshot({ path: 'test-results/repository-diff-view.png', fullPage: false });
    expect(problems).toEqual([]);
  });

  it('has no serious or critical axe-core violations, light and dark, at 1280 and 390 px', async () => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await signIn(page);
        for (const path of [`/root/diffs/-/commit/${commitId}`, `/root/diffs/-/commit/${commitId}?view=parallel`]) {
          await page.goto(`${kiln.url}${path}`);
          for (const violation of await violationsOf(page)) found.push(`${colorScheme} ${width} ${path}: ${violation}`);
        }
        if (colorScheme === 'dark' && width === 1280) await page.screenshot({ path: 'test-results/repository-diff-view-dark.png' });
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });
});
