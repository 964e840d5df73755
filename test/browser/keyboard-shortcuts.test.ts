// Keyboard shortcuts (issue 36) in Debian's Chromium against a started `kiln serve`: `?` opens the list
// of the page's shortcuts in a modal <dialog> (focus inside it, Escape closes it), `/` and `s` focus the
// search box, `g` then `i` goes to the project's issues, Shift+I to the issues assigned to you, `t` to
// "find file"; Shift+G, Shift+L, Shift+S and Shift+R to the dashboard's groups, milestones, snippets and
// review requests, `i` to a new issue; nothing fires while typing in a text area or with Ctrl; the user
// menu's entry opens the dialog too; axe-core clean with the dialog open at 1280 px light and 390 px
// dark, and the new dashboard pages at 1280 and 390 px in both themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const PROJECT = '/root/shop';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Shop', path: 'shop', initialize_with_readme: true });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Checkout is slow' });
  // What the dashboard pages of Shift+G, Shift+L and Shift+S list: a group, milestones, a snippet.
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'Crew', path: 'crew' });
  await apiCall(kiln, 'POST', `/groups/${group.id}/milestones`, { title: 'Crew launch' });
  const milestone = await apiCall(kiln, 'POST', `/projects/${project.id}/milestones`, { title: 'Launch', due_date: '2027-01-10' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ship it', milestone_id: milestone.id });
  await apiCall(kiln, 'POST', '/snippets', { title: 'Deploy notes', visibility: 'private', files: [{ file_path: 'notes.md', content: '# Deploy' }] });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const dialogOpen = (page: Page) => page.evaluate(() => (document.getElementById('keyboard-shortcuts') as HTMLDialogElement).open);
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const focusInDialog = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('#keyboard-shortcuts')));
const rows = (page: Page) => page.$$eval('#keyboard-shortcuts tbody tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));

describe('keyboard shortcuts in a browser', () => {
  it('? lists the page’s shortcuts in a modal dialog that Escape closes; / focuses the search; g then i goes to the issues', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${kiln.url}${PROJECT}`);
    expect(await page.isHidden('[data-show-shortcuts]')).toBe(true); // inside the closed user menu
    await page.keyboard.press('?');
    expect(await dialogOpen(page)).toBe(true);
    expect(await focusInDialog(page)).toBe(true);
    const listed = await rows(page);
    expect(listed).toContain('g then i Go to Issues');
    expect(listed).toContain('g then o Go to Overview');
    expect(listed).toContain('t Find a file');
    expect(listed).toContain('Shift + i Go to the issues assigned to you');
    expect(listed).toContain('s or / Focus the search box');
    expect(await page.$$eval('#keyboard-shortcuts caption', (captions) => captions.map((caption) => caption.textContent))).toEqual(['Global', 'This project']);
    // The browser keeps the page behind the modal dialog inert: Tab reaches nothing there, nor does focus().
    for (let n = 0; n < 3; n += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement === document.body || Boolean(document.activeElement?.closest('#keyboard-shortcuts')))).toBe(true);
    }
    expect(await page.evaluate(() => { document.getElementById('top-search')!.focus(); return document.activeElement?.id; })).not.toBe('top-search');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await dialogOpen(page)).toBe(false);

    await page.keyboard.press('/');
    expect(await focusedId(page)).toBe('top-search');
    expect(await page.inputValue('#top-search')).toBe(''); // the key focused the box, it typed nothing
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('s');
    expect(await focusedId(page)).toBe('top-search');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());

    await Promise.all([page.waitForURL(`${kiln.url}${PROJECT}/-/issues`), page.keyboard.press('g').then(() => page.keyboard.press('i'))]);
    expect(await page.textContent('main')).toContain('Checkout is slow');
    await Promise.all([page.waitForURL(/\/-\/find_file\/main$/), page.keyboard.press('t')]);
    // Find file puts the cursor in its own field: keys are the field's until it is left.
    expect(await focusedId(page)).not.toBe('');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await Promise.all([page.waitForURL(`${kiln.url}/dashboard/issues`), page.keyboard.press('Shift+I')]);
    // Outside a project only the global shortcuts are listed.
    await page.keyboard.press('?');
    expect(await page.$$eval('#keyboard-shortcuts caption', (captions) => captions.map((caption) => caption.textContent))).toEqual(['Global']);
    await context.close();
  });

  it('ignores keys typed in a text area, with Ctrl, and a g whose second key comes late', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${kiln.url}${PROJECT}/-/issues/new`);
    await page.click('#issue-description');
    await page.keyboard.type('g i ? / s');
    expect(await page.inputValue('#issue-description')).toBe('g i ? / s');
    expect(await dialogOpen(page)).toBe(false);
    expect(page.url()).toBe(`${kiln.url}${PROJECT}/-/issues/new`);
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('Control+/');
    expect(await focusedId(page)).not.toBe('top-search');
    await page.keyboard.press('g');
    await page.waitForTimeout(1300);
    await page.keyboard.press('i');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${kiln.url}${PROJECT}/-/issues/new`);
    await context.close();
  });

  it.each([
    { width: 390, colorScheme: 'dark' as const, background: 'rgb(22, 26, 33)' },
    { width: 390, colorScheme: 'light' as const, background: 'rgb(255, 255, 255)' },
    { width: 1280, colorScheme: 'dark' as const, background: 'rgb(22, 26, 33)' },
  ])('opens from the user menu without a keyboard, axe-clean and within the screen at $width px ($colorScheme)', async ({ width, colorScheme, background }) => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width, height: 844 }, colorScheme });
    await page.goto(`${kiln.url}${PROJECT}/-/issues`);
    await page.click('.user-menu summary');
    await page.click('[data-show-shortcuts]');
    expect(await dialogOpen(page)).toBe(true);
    expect(await page.evaluate(() => document.querySelector('.user-menu')?.hasAttribute('open'))).toBe(false);
    const box = await page.locator('#keyboard-shortcuts').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('keyboard-shortcuts')!).backgroundColor)).toBe(background);
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('#keyboard-shortcuts button:has-text("Close")');
    expect(await dialogOpen(page)).toBe(false);
    await context.close();
  });

  it('Shift+G, Shift+L, Shift+S and Shift+R go to your groups, milestones, snippets and review requests; i to a new issue', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${kiln.url}/`);
    await page.keyboard.press('?');
    const listed = await rows(page);
    for (const row of ['Shift + g Go to your groups', 'Shift + l Go to your milestones', 'Shift + s Go to your snippets', 'Shift + r Go to the merge requests waiting for your review']) expect(listed).toContain(row);
    await page.keyboard.press('Escape');
    await Promise.all([page.waitForURL(`${kiln.url}/dashboard/groups`), page.keyboard.press('Shift+G')]);
    expect(await page.textContent('#your-groups')).toContain('Crew');
    await Promise.all([page.waitForURL(`${kiln.url}/dashboard/milestones`), page.keyboard.press('Shift+L')]);
    expect(await page.textContent('#your-milestones')).toContain('0 of 1 issues closed');
    await Promise.all([page.waitForURL(`${kiln.url}/dashboard/snippets`), page.keyboard.press('Shift+S')]);
    expect(await page.textContent('main')).toContain('Deploy notes');
    await Promise.all([page.waitForURL(`${kiln.url}/dashboard/merge_requests?reviewer_username=root`), page.keyboard.press('Shift+R')]);
    expect(await page.textContent('nav.tabs [aria-current="page"]')).toBe('Review requests for you');
    await page.goto(`${kiln.url}${PROJECT}/-/merge_requests`);
    await Promise.all([page.waitForURL(`${kiln.url}${PROJECT}/-/issues/new`), page.keyboard.press('i')]);
    await context.close();
  });

  it.each([
    { width: 1280, colorScheme: 'light' as const },
    { width: 1280, colorScheme: 'dark' as const },
    { width: 390, colorScheme: 'light' as const },
    { width: 390, colorScheme: 'dark' as const },
  ])('the groups, milestones and snippets pages are axe-clean and within the screen at $width px ($colorScheme)', async ({ width, colorScheme }) => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width, height: 844 }, colorScheme });
    for (const path of ['/dashboard/groups', '/dashboard/milestones', '/dashboard/milestones?state=closed', '/dashboard/snippets']) {
      await page.goto(`${kiln.url}${path}`);
      expect(await seriousViolations(page), path).toEqual([]);
      expect(await overflowsSideways(page), path).toBe(false);
    }
    await context.close();
  });

  it('works for a visitor: the top bar’s entry and ? list the search shortcut, none of a signed-in user’s pages', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${kiln.url}/explore`);
    expect(await page.isVisible('[data-show-shortcuts]')).toBe(true);
    await page.click('[data-show-shortcuts]');
    const listed = await rows(page);
    expect(listed).toContain('s or / Focus the search box');
    expect(listed.some((row) => row.includes('Shift'))).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
