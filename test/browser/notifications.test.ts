// The profile notifications page in Debian's Chromium against a started `kiln serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let token: string;
let group: { id: number };
let project: { id: number };

const PASSWORD = 'nina-password-1';

beforeAll(async () => {
  kiln = await startKilnProcess();
  const user = await apiCall(kiln, 'POST', '/users', { username: 'nina', name: 'Nina', email: 'nina@example.com', password: PASSWORD });
  token = (await apiCall(kiln, 'POST', `/users/${user.id}/personal_access_tokens`, { name: 'browser', scopes: ['api'] })).token;
  group = await apiCall(kiln, 'POST', '/groups', { name: 'ops', path: 'ops' }, token);
  project = await apiCall(kiln, 'POST', '/projects', { name: 'pager', path: 'pager', namespace_id: group.id }, token);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

describe('/profile/notifications in a browser', () => {
  it('signs in, sets the global level to custom with events, and a group and project level', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = `${kiln.url}/profile/notifications`;
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    await page.fill('#login', 'nina');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(url), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Notifications');
    expect(await page.inputValue('#level-global')).toBe('participating');
    expect(await page.inputValue('#notification-email')).toBe('nina@example.com');

    await page.selectOption('#level-global', 'custom');
    await page.check('#global-new_note');
    await page.check('#global-failed_pipeline');
    await Promise.all([page.waitForURL(url), page.click('button:has-text("Save global settings")')]);
    expect(await page.textContent('[role=status]')).toContain('Notification settings saved.');
    expect(await page.inputValue('#level-global')).toBe('custom');
    expect(await page.isChecked('#global-new_note')).toBe(true);
    expect(await page.isChecked('#global-new_issue')).toBe(false);

    await page.selectOption(`#level-group-${group.id}`, 'watch');
    await Promise.all([page.waitForURL(url), page.click(`#form-group-${group.id} button`)]);
    await page.selectOption(`#level-project-${project.id}`, 'disabled');
    await Promise.all([page.waitForURL(url), page.click(`#form-project-${project.id} button`)]);
    expect(await page.inputValue(`#level-group-${group.id}`)).toBe('watch');
    expect(await page.inputValue(`#level-project-${project.id}`)).toBe('disabled');

    const global = await apiCall(kiln, 'GET', '/notification_settings', undefined, token);
    expect(global.level).toBe('custom');
    expect(global.events).toMatchObject({ new_note: true, failed_pipeline: true, new_issue: false });
    expect(await apiCall(kiln, 'GET', `/groups/${group.id}/notification_settings`, undefined, token)).toEqual({ level: 'watch' });
    expect(await apiCall(kiln, 'GET', `/projects/${project.id}/notification_settings`, undefined, token)).toEqual({ level: 'disabled' });
    await context.close();
  });
});
