// A merge request's journey in Chromium (issue 34): a Developer pushes a branch with git, opens the
// merge request from the compare page's link (title and `Closes #1` taken from the commit), a
// Maintainer comments on a line in Changes with a suggestion, Dana applies it from the page (a commit
// on her branch, the thread resolved), Mia approves, waits for the mergeability check in the
// widget and merges with squash; the issue the commit names is closed. Every merge request page is
// screenshotted into test-results/merge-requests/ and checked with axe-core (no serious or critical
// violations) in the light and dark themes, at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { gitCommands } from '../helpers/git.js';

const PASSWORD = 'merge-request-password-1';
const SHOTS = join(process.cwd(), 'test-results', 'merge-requests');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let kiln: KilnProcess;
let browser: Browser;
let home: string;
let project: any;
const git = gitCommands(() => home);

beforeAll(async () => {
  kiln = await startKilnProcess();
  const dana = await apiCall(kiln, 'POST', '/users', { username: 'dana', name: 'Dana Developer', email: 'dana@example.com', password: PASSWORD, skip_confirmation: true });
  const mia = await apiCall(kiln, 'POST', '/users', { username: 'mia', name: 'Mia Maintainer', email: 'mia@example.com', password: PASSWORD, skip_confirmation: true });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'Shop', path: 'shop' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: dana.id, access_level: 30 });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: mia.id, access_level: 40 });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'totals.py', content: 'def total(items):\n    return sum(items)\n' }] });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Totals ignore discounts' });
  browser = await launchBrowser();
  home = mkdtempSync(join(tmpdir(), 'kiln-mr-journey-'));
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
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

async function review(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  expect([name, await violationsOf(page)]).toEqual([name, []]);
}

async function signIn(page: Page, username: string) {
  await signInAs(page, kiln.url, username, PASSWORD);
}

async function submit(page: Page, selector: string) {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

describe('a merge request in the browser', () => {
  it('goes from a pushed branch to a squashed merge that closes the issue it names', async () => {
    // Dana pushes a branch with real git.
    const work = join(home, 'shop');
    await git.ok(['clone', `http://dana:${PASSWORD}@127.0.0.1:${kiln.port}/root/shop.git`, work]);
    await git.ok(['checkout', '-b', 'discounts'], work);
    writeFileSync(join(work, 'totals.py'), 'def total(items, discount=0):\n    return sum(items) - discount\n');
    await git.ok(['commit', '-am', 'Apply discounts to totals\n\nCloses #1'], work);
    await git.ok(['push', 'origin', 'discounts'], work);

    const dana = await browser.newPage();
    const problems = watchProblems(dana);
    await signIn(dana, 'dana');
    await dana.goto(`${kiln.url}/root/shop/-/compare/main...discounts`);
    await submit(dana, '#create-merge-request');
    expect(await dana.inputValue('#mr-title')).toBe('Apply discounts to totals');
    expect(await dana.inputValue('#mr-description')).toBe('Closes #1');
    await review(dana, '01-new');
    await dana.fill('#mr-reviewers', 'mia');
    await submit(dana, 'button:has-text("Create merge request")');
    expect(new URL(dana.url()).pathname).toBe('/root/shop/-/merge_requests/1');
    await expect(dana.locator('#mr-reviewers').textContent()).resolves.toContain('Mia Maintainer');
    expect(problems).toEqual([]);

    // Mia comments on the changed line in Changes.
    const mia = await browser.newPage();
    const miaProblems = watchProblems(mia);
    await signIn(mia, 'mia');
    await mia.goto(`${kiln.url}/root/shop/-/merge_requests/1/diffs`);
    await mia.waitForFunction(() => (window as unknown as { htmx?: unknown }).htmx !== undefined);
    const added = mia.locator('tr.add', { hasText: 'return sum(items) - discount' });
    await added.hover();
    await added.locator('button.comment-button').click();
    await mia.waitForSelector('tr.diff-note-form textarea');
    await mia.fill('tr.diff-note-form textarea', 'Should a discount ever exceed the **sum**?\n\n```suggestion\n    return max(sum(items) - discount, 0)\n```');
    await submit(mia, 'tr.diff-note-form button[type=submit]');
    await expect(mia.locator('tr.slot .thread strong').first().textContent()).resolves.toBe('sum');
    await expect(mia.locator('tr.slot .suggestion-diff ins').textContent()).resolves.toContain('return max(sum(items) - discount, 0)');
    await review(mia, '02-changes-with-thread');

    // Dana applies the suggestion from the Changes tab: a commit on her branch, the thread resolved.
    await dana.goto(`${kiln.url}/root/shop/-/merge_requests/1/diffs`);
    await submit(dana, 'role=button[name="Apply suggestion"]');
    expect(new URL(dana.url()).pathname).toBe('/root/shop/-/merge_requests/1/diffs');
    await expect(dana.locator('body').textContent()).resolves.toContain('Suggestion applied.');
    await dana.waitForSelector('.thread.resolved .suggestion-bar .badge:has-text("Applied")');
    // The page it lands on shows the new version already, the applied thread outdated by it.
    await expect(dana.locator('tr.add', { hasText: 'return max(sum(items) - discount, 0)' }).count()).resolves.toBe(1);
    await expect(dana.locator('.outdated-threads > summary').textContent()).resolves.toBe('1 outdated thread');
    await review(dana, '02b-suggestion-applied');
    expect(problems).toEqual([]);
    const applied = await fetch(`${kiln.url}/api/v4/projects/${project.id}/repository/files/totals.py/raw?ref=discounts`, { headers: { 'PRIVATE-TOKEN': kiln.rootToken } });
    expect(await applied.text()).toBe('def total(items, discount=0):\n    return max(sum(items) - discount, 0)\n');
    const [suggested] = (await apiCall(kiln, 'GET', `/projects/${project.id}/merge_requests/1/discussions`)).filter((discussion: { notes: Array<{ system: boolean }> }) => !discussion.notes[0].system);
    expect(suggested.notes[0]).toMatchObject({ resolved: true, suggestions: [expect.objectContaining({ applied: true })] });

    // Approve, wait for the background check, merge with squash.
    await mia.goto(`${kiln.url}/root/shop/-/merge_requests/1`);
    await submit(mia, '#approve');
    await expect(mia.locator('#approvals').textContent()).resolves.toContain('Approved by Mia Maintainer');
    await mia.waitForSelector('#merge-button', { timeout: 60_000 });
    // Reactions to the merge request and to Mia's comment, swapped in place by htmx.
    await mia.click('.awards:not(.note-awards) button[data-name="thumbsup"]');
    await mia.waitForSelector('.awards:not(.note-awards) button[data-name="thumbsup"][aria-pressed="true"]');
    await mia.selectOption('.note-awards select', 'rocket');
    await mia.click('.note-awards button:has-text("React")');
    await mia.waitForSelector('.note-awards button[data-name="rocket"][aria-pressed="true"]');
    await review(mia, '03-ready-to-merge');
    await mia.check('#merge-squash');
    await submit(mia, '#merge-button');
    await expect(mia.locator('#merge-state').getAttribute('data-status')).resolves.toBe('merged');
    await review(mia, '04-merged');
    expect(miaProblems).toEqual([]);

    const mr = await apiCall(kiln, 'GET', `/projects/${project.id}/merge_requests/1`);
    expect(mr).toMatchObject({ state: 'merged', merged_by: { username: 'mia' }, squash: true, upvotes: 1 });
    const merged = await fetch(`${kiln.url}/api/v4/projects/${project.id}/repository/files/totals.py/raw?ref=main`, { headers: { 'PRIVATE-TOKEN': kiln.rootToken } });
    expect(await merged.text()).toContain('return max(sum(items) - discount, 0)');
    const thread = (await apiCall(kiln, 'GET', `/projects/${project.id}/merge_requests/1/discussions`)).find((discussion: { notes: Array<{ system: boolean }> }) => !discussion.notes[0].system);
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}/merge_requests/1/notes/${thread.notes[0].id}/award_emoji`)).map((award: { name: string }) => award.name)).toEqual(['rocket']);
    const issue = await apiCall(kiln, 'GET', `/projects/${project.id}/issues/1`);
    expect(issue.state).toBe('closed');
  });

  it('has no serious or critical axe-core violations on any merge request page, light and dark, at 1280 and 390 px', async () => {
    const found: string[] = [];
    const pages = ['/root/shop/-/merge_requests?state=all', '/root/shop/-/merge_requests/new', '/root/shop/-/merge_requests/1', '/root/shop/-/merge_requests/1/commits', '/root/shop/-/merge_requests/1/diffs', '/root/shop/-/merge_requests/1/diffs?view=parallel', '/root/shop/-/merge_requests/1/edit'];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await signIn(page, 'mia');
        for (const path of pages) {
          await page.goto(`${kiln.url}${path}`);
          for (const violation of await violationsOf(page)) found.push(`${colorScheme} ${width} ${path}: ${violation}`);
          if (width === 390) {
            // Usable at 390 px: nothing wider than the screen but the diff's own scrolling table.
            const wide = await page.evaluate(() => {
              const scrolls = (element: Element | null): boolean => {
                for (let node = element; node; node = node.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(node).overflowX)) return true;
                return false;
              };
              return [...document.querySelectorAll('body *')]
                .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !scrolls(element.parentElement))
                .slice(0, 3)
                .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')} (${Math.round(element.getBoundingClientRect().right)}px)`);
            });
            if (wide.length) found.push(`${colorScheme} ${width} ${path}: wider than the screen: ${wide.join(', ')}`);
            const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (sideways > 0) found.push(`${colorScheme} ${width} ${path}: the page scrolls sideways by ${sideways}px`);
          }
        }
        await page.screenshot({ path: join(SHOTS, `edit-${colorScheme}-${width}.png`), fullPage: true });
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });
});
