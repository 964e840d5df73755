// A newcomer's journey through the pages behind the API's web_urls (issue 16), in Debian's Chromium:
// sign in → create a group → create a project → push a README with git → see it rendered → open an
// issue → comment → close → add a member → see an environment created through the API → watch an
// alert appear in the open list without reloading → create an incident and follow its link.
// Every page is screenshotted into test-results/journey/ and checked with axe-core (no serious or
// critical violations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { gitCommands } from '../helpers/git.js';

const PASSWORD = 'newcomer-password-1';
const SHOTS = join(process.cwd(), 'test-results', 'journey');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let kiln: KilnProcess;
let browser: Browser;
let home: string;
const git = gitCommands(() => home);

beforeAll(async () => {
  kiln = await startKilnProcess();
  await apiCall(kiln, 'POST', '/users', { username: 'nina', name: 'Nina Newcomer', email: 'nina@example.com', password: PASSWORD, skip_confirmation: true });
  await apiCall(kiln, 'POST', '/users', { username: 'hal', name: 'Hal Helper', email: 'hal@example.com', password: PASSWORD, skip_confirmation: true });
  browser = await launchBrowser();
  home = mkdtempSync(join(tmpdir(), 'kiln-journey-'));
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Screenshot the page and run axe-core on it: no serious or critical violations. */
async function review(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
    return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes)`);
  });
  expect([name, violations]).toEqual([name, []]);
}

async function submit(page: Page, selector: string) {
  await Promise.all([page.waitForLoadState('load'), page.waitForNavigation(), page.click(selector)]);
}

describe('a newcomer in the browser', () => {
  it('goes from signing in to an incident opened from a live alert', async () => {
    const page = await browser.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${kiln.url}/`);
    await page.fill('#login', 'nina');
    await page.fill('#password', PASSWORD);
    await submit(page, 'button:has-text("Sign in")');
    await review(page, '01-home');

    // A group, then a project in it.
    await page.goto(`${kiln.url}/groups/new`);
    await page.fill('#group-name', 'Acme');
    await page.fill('#group-path', 'acme');
    await page.check('#visibility-internal');
    await submit(page, 'button:has-text("Create group")');
    expect(new URL(page.url()).pathname).toBe('/groups/acme');
    await review(page, '02-group');
    await submit(page, '.actions a:has-text("New project")');
    await page.fill('#project-name', 'Storefront');
    await page.fill('#project-description', 'Sells **everything**');
    // The README is pushed from an existing repository below, so the project starts empty (the
    // README first commit is ticked by default, as GitLab's form does).
    await expect(page.locator('#project-readme').isChecked()).resolves.toBe(true);
    await page.uncheck('#project-readme');
    await review(page, '03-new-project');
    await submit(page, 'button:has-text("Create project")');
    expect(new URL(page.url()).pathname).toBe('/acme/storefront');
    await expect(page.locator('.description strong').textContent()).resolves.toBe('everything');

    // A README pushed with real git shows on the overview.
    const work = join(home, 'storefront');
    const remote = `http://nina:${PASSWORD}@127.0.0.1:${kiln.port}/acme/storefront.git`;
    await git.ok(['init', work]);
    writeFileSync(join(work, 'README.md'), '# Storefront\n\nThe **shop** front end. <script>alert(1)</script>\n');
    await git.ok(['add', 'README.md'], work);
    await git.ok(['commit', '-m', 'Add README'], work);
    await git.ok(['push', remote, 'HEAD:main'], work);
    await page.reload();
    await expect(page.locator('.readme h1').textContent()).resolves.toBe('Storefront');
    await expect(page.locator('.readme script').count()).resolves.toBe(0);
    await review(page, '04-project-overview');

    // An issue: open it, comment, close it.
    await submit(page, '.sidebar a:has-text("Issues")');
    await review(page, '05-issues-empty');
    await submit(page, '.actions a:has-text("New issue")');
    await page.fill('#issue-title', 'Checkout button is <b>grey</b>');
    await page.fill('#issue-description', 'Steps:\n\n1. open `/cart`\n2. see it');
    await submit(page, 'button:has-text("Create issue")');
    expect(new URL(page.url()).pathname).toBe('/acme/storefront/-/issues/1');
    await page.fill('#note-body', 'I can see it **too**');
    await submit(page, 'button:has-text("Comment")');
    await expect(page.locator('#notes .note strong').last().textContent()).resolves.toBe('too');
    await submit(page, 'button:has-text("Close issue")');
    await expect(page.locator('.flash').textContent()).resolves.toBe('Issue closed.');
    await expect(page.locator('.issue-meta .state-closed').count()).resolves.toBe(1);
    await review(page, '06-issue');
    await page.goto(`${kiln.url}/acme/storefront/-/issues?state=closed`);
    await expect(page.locator('#issues tbody tr').count()).resolves.toBe(1);
    await review(page, '07-issues-closed');

    // A member.
    await page.goto(`${kiln.url}/acme/storefront/-/project_members`);
    await page.fill('#member-username', 'hal');
    await page.selectOption('#member-role', '30');
    await submit(page, 'button:has-text("Invite")');
    await expect(page.locator('tr[data-user="hal"]').count()).resolves.toBe(1);
    await review(page, '08-members');

    // An environment made through the API.
    const project = await apiCall(kiln, 'GET', '/projects/acme%2Fstorefront');
    await apiCall(kiln, 'POST', `/projects/${project.id}/environments`, { name: 'production', external_url: 'https://shop.example.com' });
    await submit(page, '.sidebar a:has-text("Environments")');
    await expect(page.locator('tr[data-environment="production"] a.external').getAttribute('href')).resolves.toBe('https://shop.example.com');
    await review(page, '09-environments');

    // An alert arrives while the list is open: it appears without a reload.
    const integration = await apiCall(kiln, 'POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Monitoring' });
    await page.goto(`${kiln.url}/acme/storefront/-/alert_management`);
    await review(page, '10-alerts-empty');
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const sent = await fetch(integration.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` }, body: JSON.stringify({ title: 'Checkout latency high', severity: 'high', gitlab_environment_name: 'production' }) });
    expect(sent.status).toBe(200);
    await page.waitForSelector('#alerts tbody tr:has-text("Checkout latency high")', { timeout: 20_000 });
    await expect(page.locator('[data-tab="open"] .badge').textContent()).resolves.toBe('1');
    expect(navigations).toEqual([]);
    await review(page, '11-alerts-live');

    // The environment shows its open alert; the alert opens an incident whose link works.
    await page.goto(`${kiln.url}/acme/storefront/-/environments`);
    await submit(page, 'tr[data-environment="production"] a:has-text("production")');
    await expect(page.locator('#environment-alerts').textContent()).resolves.toContain('Checkout latency high');
    await review(page, '12-environment');
    await submit(page, '#environment-alerts a');
    await submit(page, 'button:has-text("Create incident")');
    await review(page, '13-alert-details');
    await submit(page, '#incident-link');
    expect(new URL(page.url()).pathname).toMatch(/^\/acme\/storefront\/-\/issues\/\d+$/);
    await expect(page.locator('h1').textContent()).resolves.toContain('Checkout latency high');
    await expect(page.locator('.linked-alert').textContent()).resolves.toContain('Checkout latency high');
    await review(page, '14-incident');

    // Activity, a profile, and the 404 page.
    await page.goto(`${kiln.url}/acme/storefront/activity`);
    await expect(page.locator('#activity').textContent()).resolves.toContain('closed');
    await review(page, '15-activity');
    await page.goto(`${kiln.url}/nina`);
    await review(page, '16-profile');
    await page.goto(`${kiln.url}/acme/storefront/edit`);
    await review(page, '17-settings');
    // Notification settings: one compact row per group and project, custom events folded away.
    await page.goto(`${kiln.url}/profile/notifications`);
    await expect(page.locator('.notification-row').count()).resolves.toBe(2);
    await expect(page.locator('.notification-row details[open]').count()).resolves.toBe(0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2500);
    await review(page, '18-notifications');
    const missing = await page.goto(`${kiln.url}/-/nowhere`);
    expect(missing?.status()).toBe(404);
    await review(page, '19-not-found');
  });
});
