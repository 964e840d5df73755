// Description templates on the new issue page in Debian's Chromium against a started `kiln serve`:
// the `Default` template fills a new form, choosing another fills the description in place (no page
// load), text the author typed is replaced only when they agree, and without JavaScript the picker's
// button reloads the page with the template; axe-core clean at 1280 px light and 390 px dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot, signInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const NEW_ISSUE = '/root/tracker/-/issues/new';
const BUG = '## Steps to reproduce\n\n1. \n';
const DEFAULT = '## Summary\n\n';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Tracker', path: 'tracker' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main', commit_message: 'Description templates',
    actions: [
      { action: 'create', file_path: '.gitlab/issue_templates/Bug.md', content: BUG },
      { action: 'create', file_path: '.gitlab/issue_templates/Default.md', content: DEFAULT },
    ],
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

describe('the description template picker in a browser', () => {
  it('fills the description in place, asking before it replaces typed text', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAsRoot(page, kiln.url, ROOT_PASSWORD);
    await page.goto(`${kiln.url}${NEW_ISSUE}`);
    expect(await page.inputValue('#issue-description')).toBe(DEFAULT);
    expect(await page.isHidden('[data-template-apply]')).toBe(true);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const dialogs: string[] = [];
    let agree = false;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void (agree ? dialog.accept() : dialog.dismiss());
    });

    // What a template put there is not the author's: replaced without asking.
    await page.selectOption('#issuable-template', 'Bug');
    await expect.poll(() => page.inputValue('#issue-description')).toBe(BUG);
    expect(dialogs).toEqual([]);

    // Typed text: declining keeps it and the choice; agreeing replaces it.
    await page.fill('#issue-description', 'It crashes when I click Save.');
    await page.selectOption('#issuable-template', 'Default');
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toContain('replace the existing description');
    expect(await page.inputValue('#issue-description')).toBe('It crashes when I click Save.');
    expect(await page.inputValue('#issuable-template')).toBe('Bug');
    agree = true;
    await page.selectOption('#issuable-template', 'Default');
    await expect.poll(() => page.inputValue('#issue-description')).toBe(DEFAULT);
    expect(dialogs).toHaveLength(2);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#issue-title', 'Crash on save');
    await Promise.all([page.waitForURL(/\/issues\/1$/), page.click('button:has-text("Create issue")')]);
    expect((await apiCall(kiln, 'GET', '/projects/root%2Ftracker/issues/1')).description).toContain('## Summary');
    await page.close();
  });

  it('reloads with the chosen template without JavaScript, and is axe-clean at 390 px dark', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { javaScriptEnabled: false, viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto(`${kiln.url}${NEW_ISSUE}`);
    await page.selectOption('#issuable-template', 'Bug');
    await Promise.all([page.waitForURL(/issuable_template=Bug/), page.click('[data-template-apply]')]);
    expect(await page.inputValue('#issue-description')).toBe(BUG);
    expect(await overflowsSideways(page)).toBe(false);
    await context.close();
    const { context: scripted, page: again } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await again.goto(`${kiln.url}${NEW_ISSUE}?issuable_template=Bug`);
    expect(await again.inputValue('#issue-description')).toBe(BUG);
    expect(await seriousViolations(again)).toEqual([]);
    await scripted.close();
  });
});
