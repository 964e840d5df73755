// The issue board in Debian's Chromium against a started `kiln serve`: lists added from the page, an
// issue moved by keyboard (the card's "Move to" form, swapped in place by htmx) and by pointer (dragged
// onto Closed), the labels and state following; axe-core clean at 1280 px light and 390 px dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let project: { id: number };
const BOARDS = '/acme/planner/-/boards';

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'Acme', path: 'acme' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'Planner', path: 'planner', namespace_id: group.id });
  await apiCall(kiln, 'POST', `/projects/${project.id}/labels`, { name: 'Doing', color: '#1f75cb' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/labels`, { name: 'Review', color: '#dd2b0e' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ship the planner' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Write the notes', labels: 'Review' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function signIn(page: Page): Promise<void> {
  await signInAs(page, kiln.url, 'root', ROOT_PASSWORD);
}

async function issue() {
  return apiCall(kiln, 'GET', `/projects/${project.id}/issues/1`);
}

describe('the issue board in a browser', () => {
  it('adds lists, moves an issue by keyboard and by pointer, and stays axe-clean', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto(`${kiln.url}${BOARDS}`);
    for (const name of ['Doing', 'Review']) {
      await page.selectOption('#add-list-label', { label: name });
      await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add list")')]);
    }
    const [board] = await apiCall(kiln, 'GET', `/projects/${project.id}/boards`);
    const doing = board.lists.find((list: { label: { name: string } }) => list.label.name === 'Doing').id;
    await page.waitForSelector('.board-list[data-list="open"] #card-1');
    await page.waitForSelector(`.board-list:not([data-list="${doing}"]) #card-2`);
    expect(await seriousViolations(page)).toEqual([]);

    // Keyboard: the card's own form, swapped in place by htmx (the page is not loaded again).
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.focus('#move-1');
    await page.selectOption('#move-1', String(doing));
    await page.focus('#card-1 button:has-text("Move")');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.board-list[data-list="${doing}"] #card-1`);
    expect(await page.textContent('#board [role=status]')).toBe('Moved #1 to Doing.');
    expect(await issue()).toMatchObject({ labels: ['Doing'], state: 'opened' });

    // Pointer: dragged onto Closed.
    // Grabbed by its top edge (the title line), not by the form below.
    await page.dragAndDrop('#card-1', '.board-list[data-list="closed"] h2', { sourcePosition: { x: 4, y: 4 } });
    await page.waitForSelector('.board-list[data-list="closed"] #card-1');
    expect(await issue()).toMatchObject({ labels: [], state: 'closed' });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 120_000);

  it('fits 390 px in the dark theme, the lists scrolling inside the board, axe-clean', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}${BOARDS}`);
    await page.waitForSelector('.board-list[data-list="closed"] #card-1');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
