// The blame page of a long file in Chromium (issue 35): it shows 1,000 lines a page, and an address
// naming a line of another page (`#L2500`) opens that page (kiln.js reads the table's
// data-lines-per-page), selects the line and scrolls to it; the page with its pager is
// axe-clean at 1280 and 390 px, light and dark, and does not scroll sideways at 390 px. On a first
// view, the lines past the first chunk come plain and are highlighted as they scroll into view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const LINES = 3000;
const line = (index: number, version: number) => `export const value${index + 1} = ${version};`;

let kiln: KilnProcess;
let browser: Browser;
const blame = '/root/blamed/-/blame/main/src/long.ts';

beforeAll(async () => {
  // No worker: the push job would highlight and keep every pushed file before its first view, and the
  // first-view test wants one that no one has highlighted yet.
  kiln = await startKilnProcess({ env: { KILN_RUN_WORKER: 'false' } });
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Blamed', path: 'blamed' });
  const lines = Array.from({ length: LINES }, (_, index) => line(index, 0));
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Add the long file', actions: [{ action: 'create', file_path: 'src/long.ts', content: `${lines.join('\n')}\n` }] });
  // Line 2500 changed by a later commit: its row names that commit.
  lines[2499] = line(2499, 1);
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Change line 2500', actions: [{ action: 'update', file_path: 'src/long.ts', content: `${lines.join('\n')}\n` }] });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'side', start_branch: 'main', commit_message: 'Add a side file', actions: [{ action: 'create', file_path: 'src/side.ts', content: `${Array.from({ length: 600 }, (_, index) => line(index, 2)).join('\n')}\n` }] });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

describe('the blame page of a long file in Chromium', () => {
  it('opens the page of a line anchor past the first page, selects the line and scrolls to it', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${kiln.url}${blame}#L2500`);
    // kiln.js replaces the address with page 3's, keeping the anchor.
    await page.waitForURL((url) => url.search === '?page=3' && url.hash === '#L2500');
    await page.waitForSelector('tr#L2500.selected');
    expect(await page.locator('tr.selected').count()).toBe(1);
    expect(await page.locator('tr#L2001').count()).toBe(1);
    expect(await page.locator('tr#L1000').count()).toBe(0);
    expect(await page.locator('#L2500 td.blame-commit').innerText()).toContain('Change line 2500');
    // Scrolled to it: once the page has loaded (avatars change the layout), the row is in the viewport.
    await page.waitForLoadState('load');
    await page.waitForFunction(
      () => {
        const box = document.getElementById('L2500')?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
      },
      null,
      { timeout: 15_000 },
    );
    // A range on the page shown selects its lines without another navigation.
    await page.goto(`${kiln.url}${blame}?page=3#L2001-2003`);
    await page.waitForSelector('tr#L2003.selected');
    expect(await page.locator('tr.selected').count()).toBe(3);
    expect(new URL(page.url()).search).toBe('?page=3');
    await page.screenshot({ path: 'test-results/repository-blame-anchor.png' });
    await context.close();
  });

  it('on a first view, highlights the lines past the first chunk as they scroll into view', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${kiln.url}/root/blamed/-/blame/side/src/side.ts`);
    // The first chunk comes highlighted; line 450 comes plain, until it is scrolled to.
    expect(await page.locator('#L50 td.line .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await page.locator('#LC450').innerText()).toBe(line(449, 2));
    await page.locator('#L450').scrollIntoViewIfNeeded();
    await page.waitForSelector('#L450 td.line .hljs-keyword');
    expect(await page.locator('#L450 td.line').innerText()).toBe(line(449, 2));
    await context.close();
  });

  it('is axe-clean with its pager at 1280 and 390 px, light and dark, without sideways scrolling at 390 px', async () => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { colorScheme, viewport: { width, height: 900 } });
        await page.goto(`${kiln.url}${blame}?page=2`);
        // The pager of a middle page: previous, next and the full blame.
        expect(await page.locator('nav.pagination[aria-label="Blame pages"] a').allInnerTexts()).toEqual(['Previous', 'Next', 'Show full blame']);
        for (const violation of await seriousViolations(page)) found.push(`${colorScheme} ${width}: ${violation}`);
        if (width === 390 && (await overflowsSideways(page))) found.push(`${colorScheme} ${width}: scrolls sideways`);
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
