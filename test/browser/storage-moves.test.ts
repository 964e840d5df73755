// The administrator's storage page in Debian's Chromium against a real `kiln serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let shards: string;

beforeAll(async () => {
  shards = mkdtempSync(join(tmpdir(), 'kiln-browser-shards-'));
  kiln = await startKilnProcess({
    env: { KILN_STORAGES: JSON.stringify({ default: { path: join(shards, 'default'), weight: 100 }, archive: { path: join(shards, 'archive'), weight: 0 } }) },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
  rmSync(shards, { recursive: true, force: true });
});

describe('/admin/repository_storages', () => {
  it('shows an administrator the shards with weights and a move reaching finished', async () => {
    const group = await apiCall(kiln, 'POST', '/groups', { name: 'docs', path: 'docs' });
    const move = await apiCall(kiln, 'POST', `/groups/${group.id}/repository_storage_moves`, { destination_storage_name: 'archive' });
    const page = await browser.newPage();
    await page.goto(`${kiln.url}/admin/repository_storages`);
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    await page.fill('#login', 'root');
    await page.fill('#password', ROOT_PASSWORD);
    await Promise.all([page.waitForURL(`${kiln.url}/admin/repository_storages`), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Repository storage');
    const shardRows = await page.$$eval('#shards tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)));
    expect(shardRows.map((cells) => [cells[0], cells[2]])).toEqual([['default', '100'], ['archive', '0']]);
    const stateCell = `#moves tr[data-move="${move.id}"] td.state`;
    for (let i = 0; i < 50 && (await page.textContent(stateCell)) !== 'finished'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
    }
    expect(await page.textContent(stateCell)).toBe('finished');
    expect(await page.textContent(`#moves tr[data-move="${move.id}"] td:nth-child(2)`)).toBe('docs');
    await page.close();
  });
});
