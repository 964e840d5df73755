// The issue sidebar, task list and edit page in Debian's Chromium against a started `kiln serve`:
// labels and an assignee set in place through htmx (no page load), a checklist item ticked in place,
// the due date set with JavaScript off, and axe-core clean at 1280 px light and 390 px dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let kiln: KilnProcess;
let browser: Browser;
let project: { id: number };
let ada: { id: number };
const ISSUE = '/acme/planner/-/issues/1';

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'Acme', path: 'acme' });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'Planner', path: 'planner', namespace_id: group.id });
  ada = await apiCall(kiln, 'POST', '/users', { username: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', password: 'ada-password-123' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: ada.id, access_level: 30 });
  await apiCall(kiln, 'POST', `/projects/${project.id}/labels`, { name: 'bug', color: '#dd2b0e', description: 'Something is broken' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/labels`, { name: 'needs review', color: '#1f75cb' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/milestones`, { title: 'v1.0' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ship the planner', description: 'Before the release:\n\n- [ ] write the notes\n- [ ] tag v1.0' });
  // A comment, so the axe passes below cover a comment's reactions block.
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues/1/notes`, { body: 'Count me in' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function violationsOf(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

async function signIn(page: Page): Promise<void> {
  await signInAs(page, kiln.url, 'root', ROOT_PASSWORD);
}

async function issue() {
  return apiCall(kiln, 'GET', `/projects/${project.id}/issues/1`);
}

describe('the issue sidebar in a browser', () => {
  it('sets labels and an assignee in place, ticks a checklist item, and stays axe-clean', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto(`${kiln.url}${ISSUE}`);
    // htmx swaps the sidebar: the page is not loaded again (a marker on window survives).
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click('section[data-section=labels] summary');
    await page.check('section[data-section=labels] input[type=checkbox] >> nth=0');
    await page.click('section[data-section=labels] button:has-text("Save")');
    await page.waitForSelector('section[data-section=labels] p .label-chip:has-text("bug")');
    await page.waitForSelector('#notes .note.system:has-text("added")');
    await page.click('section[data-section=assignees] summary');
    await page.selectOption('#sidebar-assignees', [String(ada.id)]);
    await page.click('section[data-section=assignees] button:has-text("Save")');
    await page.waitForSelector('section[data-section=assignees] li:has-text("Ada Lovelace")');
    await page.waitForSelector('#notes .note.system:has-text("assigned to")');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await issue()).toMatchObject({ labels: ['bug'], assignees: [{ username: 'ada' }] });

    await page.check('input.task-list-item-checkbox[aria-label="tag v1.0"]');
    await expect.poll(async () => (await issue()).description).toBe('Before the release:\n\n- [ ] write the notes\n- [x] tag v1.0');
    await page.waitForSelector('input.task-list-item-checkbox[aria-label="tag v1.0"]:checked');
    // A reaction to the comment from its picker, swapped in place.
    const reactions = page.locator('#notes .note:not(.system) .note-awards');
    await reactions.locator('select').selectOption('rocket');
    await reactions.locator('button:has-text("React")').click();
    await page.waitForSelector('#notes .note-awards button[data-name="rocket"][aria-pressed="true"]');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await violationsOf(page)).toEqual([]);

    await page.goto(`${kiln.url}${ISSUE}/edit`);
    expect(await violationsOf(page)).toEqual([]);
    await page.close();
  });

  it('works without JavaScript, and at 390 px in the dark theme', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}${ISSUE}`);
    await page.click('section[data-section=due-date] summary');
    await page.fill('#sidebar-due-date', '2026-12-24');
    await Promise.all([page.waitForNavigation(), page.click('section[data-section=due-date] button:has-text("Save")')]);
    expect(await page.textContent('[role=status]')).toContain('Due date saved.');
    expect(await page.textContent('section[data-section=due-date] time')).toBe('2026-12-24');
    await Promise.all([page.waitForNavigation(), page.click('section[data-section=discussion_locked] button')]);
    expect((await issue()).discussion_locked).toBe(true);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 23)');
    await context.close();
    // axe needs scripts: the same page with them on, still at 390 px and dark.
    const scripted = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const again = await scripted.newPage();
    await signIn(again);
    await again.goto(`${kiln.url}${ISSUE}`);
    expect(await violationsOf(again)).toEqual([]);
    await scripted.close();
  });
});

describe('the label and milestone pages in a browser', () => {
  it('create a label with the colour picker, subscribe to it and unsubscribe; label and milestone pages axe-clean at 1280 px light and 390 px dark', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto(`${kiln.url}/acme/planner/-/labels/new`);
    expect(await violationsOf(page)).toEqual([]);
    await page.fill('#label-title', 'documentation');
    await page.fill('#label-color-picker', '#00aa55');
    expect(await page.inputValue('#label-color')).toBe('#00aa55');
    await Promise.all([page.waitForURL(`${kiln.url}/acme/planner/-/labels`), page.click('button:has-text("Create label")')]);
    expect(await page.textContent('table.labels')).toContain('documentation');
    expect(await violationsOf(page)).toEqual([]);
    // Subscribe and Unsubscribe with the row's button (a form POST, back on the list).
    const row = 'table.labels tr:has-text("documentation")';
    await Promise.all([page.waitForURL(`${kiln.url}/acme/planner/-/labels`), page.click(`${row} button:has-text("Subscribe")`)]);
    expect(await page.textContent(`${row} form button`)).toContain('Unsubscribe');
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}/labels/documentation`)).subscribed).toBe(true);
    expect(await violationsOf(page)).toEqual([]);
    await Promise.all([page.waitForURL(`${kiln.url}/acme/planner/-/labels`), page.click(`${row} button:has-text("Unsubscribe")`)]);
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}/labels/documentation`)).subscribed).toBe(false);
    await page.close();
    const dark = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const small = await dark.newPage();
    await signIn(small);
    for (const path of ['/acme/planner/-/labels', '/groups/acme/-/labels', '/acme/planner/-/labels/new', '/acme/planner/-/milestones', '/acme/planner/-/milestones/1', '/acme/planner/-/milestones/new', '/acme/planner/-/milestones/1/edit']) {
      await small.goto(`${kiln.url}${path}`);
      expect([path, await violationsOf(small)]).toEqual([path, []]);
    }
    await dark.close();
  });
});

describe('the to-do list, your work and the issue list filters in a browser', () => {
  it('marks a to-do done in place (the top bar count follows), axe-clean at 1280 px light and 390 px dark', async () => {
    const root = await apiCall(kiln, 'GET', '/user');
    await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Review the <b>plan</b>', assignee_ids: [root.id], description: '@root have a look' });
    await expect.poll(async () => (await apiCall(kiln, 'GET', '/todos')).length).toBe(1);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto(`${kiln.url}/dashboard/todos`);
    expect(await page.textContent('#todos-count')).toBe('1');
    expect(await violationsOf(page)).toEqual([]);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click('#todos li button:has-text("Mark as done")');
    await page.waitForSelector('#todos li:has-text("Marked as done.")');
    expect(await page.textContent('#todos-count')).toBe('0');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await violationsOf(page)).toEqual([]);
    // The issue page's to-do button, in place: "Add a to do" then "Mark as done", the count following.
    await page.goto(`${kiln.url}${ISSUE}`);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 2));
    await page.click('#todo-toggle button:has-text("Add a to do")');
    await page.waitForSelector('#todo-toggle button:has-text("Mark as done")');
    expect(await page.textContent('#todos-count')).toBe('1');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(2);
    expect((await apiCall(kiln, 'GET', '/todos')).map((todo: { action_name: string }) => todo.action_name)).toEqual(['marked']);
    expect(await violationsOf(page)).toEqual([]);
    await page.click('#todo-toggle button:has-text("Mark as done")');
    await page.waitForSelector('#todo-toggle button:has-text("Add a to do")');
    expect(await page.textContent('#todos-count')).toBe('0');
    // "Your work": the issue assigned to root, and the merge request pages.
    await page.goto(`${kiln.url}/dashboard/issues`);
    expect(await page.textContent('#your-work')).toContain('Review the <b>plan</b>');
    expect(await violationsOf(page)).toEqual([]);
    await page.goto(`${kiln.url}/dashboard/merge_requests?scope=reviews_for_me`);
    expect(await violationsOf(page)).toEqual([]);
    // The issue list's filter form, used as a visitor would: pick a label, apply.
    await page.goto(`${kiln.url}/acme/planner/-/issues`);
    await page.selectOption('#filter-labels', ['bug']);
    await Promise.all([page.waitForNavigation(), page.click('.issue-filters button:has-text("Apply")')]);
    expect(page.url()).toContain('label_name=bug');
    expect(await page.textContent('#issues')).toContain('Ship the planner');
    expect(await violationsOf(page)).toEqual([]);
    // The group's issues: the same list over the group's projects, each issue with its project's reference.
    await page.goto(`${kiln.url}/groups/acme/-/issues`);
    expect(await page.textContent('#issues')).toContain('acme/planner#1');
    expect(await violationsOf(page)).toEqual([]);
    await page.close();
    const dark = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const small = await dark.newPage();
    await signIn(small);
    for (const path of ['/dashboard/todos?state=done', '/dashboard/todos', ISSUE, '/dashboard/issues', '/dashboard/merge_requests', '/acme/planner/-/issues?label_name=bug&sort=title_asc']) {
      await small.goto(`${kiln.url}${path}`);
      expect([path, await violationsOf(small)]).toEqual([path, []]);
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await dark.close();
  });
});
