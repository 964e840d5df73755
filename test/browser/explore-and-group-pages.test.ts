// Explore, a group's settings, its issue board and its issues in Debian's Chromium against a started
// `kiln serve` (issue 36): a visitor finds Explore from the sign-in page; an Owner saves the group's
// settings (a refused path shown by its field) and moves issues on the group board by keyboard and by
// pointer; every page axe-core clean (no serious or critical violations) at 1280 px and 390 px, light
// and dark, and none scrolls sideways at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let issue: { id: number; iid: number; project_id: number };
let notes: { id: number; iid: number; project_id: number };

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'Acme', path: 'acme', visibility: 'public', description: 'Tools for the **shop**' });
  await apiCall(kiln, 'POST', '/groups', { name: 'Taken', path: 'taken' });
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Storefront', path: 'storefront', namespace_id: group.id, visibility: 'public', description: 'The shop front', topics: ['shop'] });
  await apiCall(kiln, 'POST', `/projects/${project.id}/star`);
  await apiCall(kiln, 'POST', `/groups/${group.id}/labels`, { name: 'Doing', color: '#1f75cb' });
  issue = await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ship the storefront' });
  notes = await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Write the notes', labels: 'Doing' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const signIn = (page: Page) => signInAsRoot(page, kiln.url, ROOT_PASSWORD);

const VISITOR_PAGES = ['/explore/projects', '/explore/projects/starred', '/explore/projects/trending', '/explore/projects/topics', '/explore/projects/topics/shop', '/explore/groups', '/explore/groups?name=nothing'];
const OWNER_PAGES = ['/groups/acme/-/edit', '/groups/acme/-/boards', '/groups/acme/-/issues', '/explore/projects?name=nothing'];
const LOOKS = [
  { width: 1280, height: 900, colorScheme: 'light' },
  { width: 1280, height: 900, colorScheme: 'dark' },
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
] as const;

const SHOWN = new Set(['/explore/projects', '/explore/groups', '/groups/acme/-/edit', '/groups/acme/-/boards', '/groups/acme/-/issues']);

async function audit(context: BrowserContext, paths: string[], look: (typeof LOOKS)[number], signedIn: boolean): Promise<Array<[string, number, string[], boolean]>> {
  const narrow = look.width < 500;
  const page = await context.newPage();
  if (signedIn) await signIn(page);
  const found: Array<[string, number, string[], boolean]> = [];
  for (const path of paths) {
    const response = await page.goto(`${kiln.url}${path}`);
    found.push([path, response?.status() ?? 0, await seriousViolations(page), narrow ? await overflowsSideways(page) : false]);
    if (SHOWN.has(path)) await page.screenshot({ path: `test-results/${path.slice(1).replace(/[/-]+/g, '-')}-${look.width}-${look.colorScheme}.png`, fullPage: true });
  }
  await page.close();
  return found;
}

describe('explore and the group pages in a browser', () => {
  it('lets a visitor find Explore from the sign-in page and the top bar', async () => {
    const page = await browser.newPage();
    await page.goto(`${kiln.url}/users/sign_in`);
    await Promise.all([page.waitForNavigation(), page.click('a:has-text("Explore projects and groups")')]);
    expect(new URL(page.url()).pathname).toBe('/explore/projects');
    expect(await page.textContent('#projects')).toContain('Storefront');
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a:has-text("Groups")')]);
    expect(await page.textContent('#groups')).toContain('Acme');
    await page.close();
  }, 60_000);

  it('saves the group settings, showing a refused path next to its field, and moves an issue on the group board', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto(`${kiln.url}/groups/acme/-/edit`);
    await page.fill('#group-path', 'taken');
    await page.fill('#group-description', 'Typed and kept');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(await page.getAttribute('#group-path', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#path-error')).toContain('taken');
    expect(await page.inputValue('#group-description')).toBe('Typed and kept');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#group-path', 'acme');
    await page.fill('#group-description', 'Tools for the shop');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(await page.textContent('.flash')).toContain('was successfully updated');

    await page.goto(`${kiln.url}/groups/acme/-/boards`);
    await page.selectOption('#add-list-label', { label: 'Doing' });
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add list")')]);
    const card = `#card-${issue.id}`;
    await page.waitForSelector(`.board-list[data-list="open"] ${card}`);
    await page.selectOption(`#move-${issue.id}`, { label: 'Closed' });
    await page.focus(`${card} button:has-text("Move")`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.board-list[data-list="closed"] ${card}`);
    expect(await page.textContent('#board [role=status]')).toBe('Moved acme/storefront#1 to Closed.');
    expect((await apiCall(kiln, 'GET', `/projects/${issue.project_id}/issues/${issue.iid}`)).state).toBe('closed');
    // Pointer: a card of the Doing list dragged onto Open (grabbed by its title line).
    await page.dragAndDrop(`#card-${notes.id}`, '.board-list[data-list="open"] h2', { sourcePosition: { x: 4, y: 4 } });
    await page.waitForSelector(`.board-list[data-list="open"] #card-${notes.id}`);
    expect((await apiCall(kiln, 'GET', `/projects/${notes.project_id}/issues/${notes.iid}`)).labels).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 120_000);

  for (const look of LOOKS) {
    it(`has no serious axe-core violations at ${look.width} px ${look.colorScheme}${look.width < 500 ? ', nor sideways scrolling' : ''}`, async () => {
      const context = await browser.newContext({ viewport: { width: look.width, height: look.height }, colorScheme: look.colorScheme });
      const found = [...(await audit(context, VISITOR_PAGES, look, false)), ...(await audit(context, OWNER_PAGES, look, true))];
      await context.close();
      expect(found).toEqual([...VISITOR_PAGES, ...OWNER_PAGES].map((path) => [path, 200, [], false]));
    }, 120_000);
  }
});
