// axe-core on the pages the newcomer journey does not pass through (issue 16): group members, the
// new group form, the incident list, the operations and error-tracking settings, and the repository,
// milestone and group activity pages, the repository settings, tags and branches pages, and a commit with a line comment. No serious or critical violations on any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let kiln: KilnProcess;
let browser: Browser;
let commitId: string;

beforeAll(async () => {
  kiln = await startKilnProcess();
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'Acme', path: 'acme' });
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'Storefront', path: 'storefront', namespace_id: group.id });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Checkout down', issue_type: 'incident' });
  const milestone = await apiCall(kiln, 'POST', `/projects/${project.id}/milestones`, { title: 'v1', description: 'The **first** release', due_date: '2030-01-31' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Ship it', milestone_id: milestone.id });
  const first = await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main', commit_message: 'Add the app',
    actions: [{ action: 'create', file_path: 'README.md', content: '# Storefront\n\nThe shop.\n' }, { action: 'create', file_path: 'src/app.ts', content: 'export const a = 1;\n' }],
  });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'feature', start_branch: 'main', commit_message: 'Change the app', actions: [{ action: 'update', file_path: 'src/app.ts', content: 'export const a = 2;\n' }] });
  commitId = first.id;
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits/${first.id}/comments`, { note: 'A **first** comment', path: 'src/app.ts', line: 1, line_type: 'new' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/protected_tags`, { name: 'v*' });
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

describe('pages outside the newcomer journey', () => {
  it('have no serious or critical axe-core violations', async () => {
    const page = await browser.newPage();
    await page.goto(`${kiln.url}/users/sign_in`);
    await page.fill('#login', 'root');
    await page.fill('#password', ROOT_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
    const paths = [
      '/groups/acme/-/group_members',
      '/groups/new',
      '/acme/storefront/-/incidents',
      '/acme/storefront/-/settings/operations',
      '/acme/storefront/-/settings/error_tracking',
      `/acme/storefront/-/commit/${commitId}`,
      '/acme/storefront/-/tree/main',
      '/acme/storefront/-/tree/main/src',
      '/acme/storefront/-/blob/main/README.md',
      '/acme/storefront/-/blob/main/src/app.ts',
      '/acme/storefront/-/compare/main...feature',
      '/acme/storefront/-/settings/repository',
      '/acme/storefront/-/tags',
      '/acme/storefront/-/branches',
      '/acme/storefront/-/milestones',
      '/acme/storefront/-/milestones/1',
      '/groups/acme/-/milestones',
      '/groups/acme/-/activity',
    ];
    const found: Array<[string, number, string[]]> = [];
    for (const path of paths) {
      const response = await page.goto(`${kiln.url}${path}`);
      found.push([path, response?.status() ?? 0, await violationsOf(page)]);
    }
    expect(found).toEqual(paths.map((path) => [path, 200, []]));
  });
});
