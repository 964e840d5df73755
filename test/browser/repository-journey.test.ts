// The repository in Chromium (issue 35), as a user meets it: a real repository of 300 commits with
// branches and tags (written with git fast-import, bench/git-history.ts) pushed over HTTP → switch
// branch → tree and a highlighted blob with a line range → blame → file history → a commit → compare
// two branches → edit a file on a new branch → upload a file → delete a branch → download archives
// and read them with tar and unzip. A file named `<img src=x onerror=alert(1)>` and a commit message
// with markup never open a dialog. Every page of the journey is axe-clean in the light and dark
// themes at 1280 and 390 px and fits 390 px; screenshots in test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';
import { gitCommands } from '../helpers/git.js';
import { writeHistory } from '../../bench/git-history.js';

const COMMITS = 300;
const HOSTILE = '<img src=x onerror=alert(1)>';

let kiln: KilnProcess;
let browser: Browser;
let work: string;
let base: string;
const git = gitCommands(() => work);
/** Every page the journey passed through, for axe in the other themes and widths. */
const visited = new Set<string>();
/** Dialogs other than the delete confirmations the journey accepts. */
const alerts: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-journey-'));
  mkdirSync('test-results', { recursive: true });
  kiln = await startKilnProcess();
  await apiCall(kiln, 'POST', '/projects', { name: 'Journey', path: 'journey' });
  const repo = join(work, 'repo');
  await git.ok(['init', '-q', repo]);
  await writeHistory(join(repo, '.git'), {
    commits: COMMITS,
    bigFileLines: 600,
    wideEntries: 40,
    files: { 'README.md': '# Journey\n\nA repository with a long history.\n', 'docs/guide.md': '# Guide\n\nRead the [README](../README.md).\n', [HOSTILE]: `${HOSTILE}\n` },
    branches: [{ name: 'feature/login', from: COMMITS - 20, commits: 3 }, { name: 'old-experiment', from: 50, commits: 2 }],
    tags: [{ name: 'v1.0', at: 100 }, { name: 'v2.0', at: COMMITS, message: 'Release 2.0' }],
  });
  await git.ok(['push', '-q', `http://root:${kiln.rootToken}@127.0.0.1:${kiln.port}/root/journey.git`, '--all'], repo);
  await git.ok(['push', '-q', `http://root:${kiln.rootToken}@127.0.0.1:${kiln.port}/root/journey.git`, '--tags'], repo);
  const project = await apiCall(kiln, 'GET', '/projects/root%2Fjourney');
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, {
    branch: 'main', commit_message: `Describe the <script>alert(2)</script> ${HOSTILE} file`,
    actions: [{ action: 'update', file_path: HOSTILE, content: `<script>alert(3)</script>\n${HOSTILE}\n` }],
  });
  base = `${kiln.url}/root/journey`;
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'confirm' && dialog.message().startsWith('Delete the branch')) return dialog.accept();
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    return dialog.dismiss();
  });
  await page.goto(`${kiln.url}/users/sign_in`);
  await page.fill('#login', 'root');
  await page.fill('#password', ROOT_PASSWORD);
  await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign in")')]);
  return page;
}

/** The page's path and query, remembered for the axe passes in both themes at 1280 and 390 px. */
async function step(page: Page, screenshot?: string): Promise<void> {
  const url = new URL(page.url());
  visited.add(`${url.pathname}${url.search}`);
  if (screenshot) await page.screenshot({ path: `test-results/repository-journey-${screenshot}.png`, fullPage: false });
}

/** The elements that reach past the viewport's right edge (what makes a page scroll sideways). */
function widest(page: Page): Promise<string> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`)
      .join(', '),
  );
}

const clickAndWait = (page: Page, selector: string) => Promise.all([page.waitForNavigation(), page.click(selector)]);

describe('the repository journey in Chromium', () => {
  it('browses, edits, uploads, deletes a branch and downloads archives', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedIn(context);

    // The tree of main: the hostile file is listed as text, the long history's last commit on top.
    await page.goto(`${base}/-/tree/main`);
    expect(await page.locator('#tree td:first-child a', { hasText: HOSTILE }).count()).toBe(1);
    // Every entry's last commit: in the page when kept, else filled by the follow-up request htmx makes.
    await page.waitForFunction(() => document.querySelector('#tree tr[data-entry]') && !document.querySelector('#tree tr[data-entry]:not([data-last-commit])'));
    await step(page, 'tree');

    // Switch to the branch with the switcher: the same folder at feature/login.
    await page.click('#ref-switcher summary');
    await clickAndWait(page, '#ref-lists a:text-is("feature/login")');
    expect(new URL(page.url()).pathname).toBe('/root/journey/-/tree/feature/login');
    await step(page);

    // Into src/ and the highlighted file; a click on a line number and a shift-click select a range.
    await clickAndWait(page, '#tree a:has-text("src/")');
    await clickAndWait(page, '#tree a:text-is("app.ts")');
    expect(new URL(page.url()).pathname).toBe('/root/journey/-/blob/feature/login/src/app.ts');
    expect(await page.locator('table.blob span[class^="hljs-"]').count()).toBeGreaterThan(0);
    await page.goto(`${base}/-/blob/feature/login/src/big.ts`);
    await page.click('a[data-line-number="5"]');
    expect(new URL(page.url()).hash).toBe('#L5');
    await page.click('a[data-line-number="9"]', { modifiers: ['Shift'] });
    expect(new URL(page.url()).hash).toBe('#L5-9');
    expect(await page.locator('table.blob tr.selected').count()).toBe(5);
    await page.keyboard.press('y');
    expect(page.url()).toMatch(/\/-\/blob\/[0-9a-f]{40}\/src\/big\.ts#L5-9$/);
    await step(page, 'blob');

    // Blame: line 8 (`value7`) was last changed by the commit that changed slice 7.
    await clickAndWait(page, 'a.button:text-is("Blame")');
    expect(await page.locator('#L8 td.blame-commit').innerText()).toContain('Change slice 7 of the values');
    expect(await page.locator('#L1 td.blame-commit').innerText()).toContain('Start the project');
    await step(page, 'blame');

    // The file's history at the branch: its three commits of the branch and the first.
    await page.goto(`${base}/-/blob/feature/login/src/app.ts`);
    await clickAndWait(page, 'a.button:text-is("History")');
    const titles = await page.locator('.commit-list a.commit-title').allInnerTexts();
    expect(titles).toEqual(['feature/login: change 3', 'feature/login: change 2', 'feature/login: change 1', 'Start the project']);
    await step(page);

    // A commit from the history: its message and its diff.
    await clickAndWait(page, '.commit-list a.commit-title:text-is("feature/login: change 2")');
    expect(await page.locator('.commit-title').innerText()).toContain('feature/login: change 2');
    expect(await page.locator('section[data-path="src/app.ts"]').count()).toBe(1);
    await step(page, 'commit');

    // Compare main with the branch through the form: the branch's three commits.
    await page.goto(`${base}/-/compare`);
    await page.fill('#compare-from', 'main');
    await page.fill('#compare-to', 'feature/login');
    await clickAndWait(page, '.compare-form button[type="submit"]');
    expect(new URL(page.url()).pathname).toBe('/root/journey/-/compare/main...feature/login');
    expect(await page.locator('.commit-list a.commit-title').count()).toBe(3);
    await step(page, 'compare');

    // Edit the README on a new branch.
    await page.goto(`${base}/-/blob/main/README.md`);
    await clickAndWait(page, 'a.button:text-is("Edit")');
    await page.fill('#file-content', '# Journey\n\nEdited in the browser.\n');
    await page.fill('#commit-message', 'Edit the README in the browser');
    await page.fill('#branch-name', 'docs/browser-edit');
    await step(page);
    await clickAndWait(page, 'button:text-is("Commit changes")');
    expect(new URL(page.url()).pathname).toBe('/root/journey/-/blob/docs/browser-edit/README.md');
    expect(await page.locator('body').innerText()).toContain('Edited in the browser.');

    // Upload a file into docs/ on that branch.
    await page.goto(`${base}/-/upload/docs/browser-edit/docs`);
    await page.setInputFiles('#upload-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Uploaded notes.\n') });
    await page.fill('#commit-message', 'Upload notes');
    await step(page);
    await clickAndWait(page, 'button:text-is("Upload file")');
    expect(new URL(page.url()).pathname).toBe('/root/journey/-/blob/docs/browser-edit/docs/notes.txt');
    expect(await page.locator('table.blob').innerText()).toContain('Uploaded notes.');

    // Delete a branch from the branches page (the confirmation accepted).
    await page.goto(`${base}/-/branches`);
    await step(page, 'branches');
    await clickAndWait(page, 'button[aria-label="Delete the branch old-experiment"]');
    expect(await page.locator('button[aria-label="Delete the branch old-experiment"]').count()).toBe(0);
    expect(await page.locator('button[aria-label="Delete the branch feature/login"]').count()).toBe(1);
    await page.goto(`${base}/-/tags`);
    await step(page);

    // Download the branch as tar.gz and zip from the tree's menu; tar and unzip read them.
    await page.goto(`${base}/-/tree/docs/browser-edit`);
    for (const [format, list] of [['tar.gz', ['tar', 'tzf']], ['zip', ['unzip', '-Z1']]] as const) {
      await page.click('details.menu summary:text-is("Download")');
      const link = page.locator(`details.menu a:text-is("${format}")`).first();
      expect(await link.isVisible()).toBe(true);
      // Fetched with the page's session rather than through a download event, which a loaded
      // machine made miss its wait while the archive was still being written.
      const answer = await page.request.get(new URL(String(await link.getAttribute('href')), page.url()).toString());
      expect(answer.status(), format).toBe(200);
      const file = join(work, `journey.${format}`);
      writeFileSync(file, await answer.body());
      const names = execFileSync(list[0], [list[1], file], { encoding: 'utf8' }).split('\n').map((name) => name.replace(/^[^/]+\//, ''));
      expect(names, format).toEqual(expect.arrayContaining(['README.md', 'docs/notes.txt', 'src/big.ts', 'wide/entry-0039.txt', HOSTILE]));
      await page.click('details.menu summary:text-is("Download")');
    }
    const readme = execFileSync('tar', ['xzOf', join(work, 'journey.tar.gz'), '--wildcards', '*/README.md'], { encoding: 'utf8' });
    expect(readme).toContain('Edited in the browser.');

    // The hostile file and commit message, shown as text on the tree, the file, blame and history.
    for (const path of [`/-/blob/main/${encodeURIComponent(HOSTILE)}`, `/-/blame/main/${encodeURIComponent(HOSTILE)}`, '/-/commits/main', '/-/find_file/main', '/-/graphs/main']) {
      await page.goto(`${base}${path}`);
      await step(page);
    }
    expect(await page.evaluate(() => document.querySelectorAll('img[onerror], script:not([src])').length)).toBe(0);
    expect(alerts).toEqual([]);
    await context.close();
  }, 300_000);

  it('every page of the journey is axe-clean in the light and dark themes at 1280 and 390 px, and fits 390 px', async () => {
    const found: string[] = [];
    const sideways: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 900 } });
        const page = await signedIn(context);
        for (const path of visited) {
          await page.goto(`${kiln.url}${path}`);
          for (const violation of await seriousViolations(page)) found.push(`${scheme} ${width} ${path}: ${violation}`);
          if (width === 390 && (await overflowsSideways(page))) sideways.push(`${path}: ${await widest(page)}`);
        }
        await page.goto(`${base}/-/blob/main/src/big.ts#L20-24`);
        await page.screenshot({ path: `test-results/repository-journey-${scheme}-${width}.png` });
        await context.close();
      }
    }
    expect(found).toEqual([]);
    expect(sideways).toEqual([]);
    expect(alerts).toEqual([]);
  }, 300_000);
});
