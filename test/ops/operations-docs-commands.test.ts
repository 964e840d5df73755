// The command blocks of configuration.md, commands.md and upgrades.md, run as written: every
// configuration error they show is printed word for word (exit 2) and leaves no data directory
// behind; the token and password commands work on a running instance; `kiln migrate` says what the
// guide says. Runs once (in the SQLite project): none of it depends on the database kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialect } from '../helpers/database.js';
import { startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { commandsOf } from '../helpers/markdown-commands.js';
import { REPO, consoleSessions, guideBlock, localise, runShell, runSteps, shellEnv } from './docs-shell.js';

describe.skipIf(testDialect() !== 'sqlite')('docs/operations/: the command blocks that need no database server', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'kiln-guide-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('configuration.md: each refused start prints the line shown, exits 2 and creates no data directory', { timeout: 120_000 }, async () => {
    // Something listening where the guide's port example says: on a port of the test's.
    const occupied: Server = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    const port = String((occupied.address() as { port: number }).port);
    try {
      const sessions = consoleSessions(guideBlock('configuration.md', '$ KILN_HOST=999.1.1.1 npx kiln serve'));
      expect(sessions.map((session) => session.command.split(' ')[0])).toEqual(['KILN_HOST=999.1.1.1', 'KILN_DATA_DIR=/proc/x', 'KILN_PORT=8080', expect.stringMatching(/^KILN_DATABASE_URL=/)]);
      const dataDir = join(work, 'never-created');
      for (const session of sessions) {
        const command = session.command.replaceAll('8080', port);
        const result = await runShell(command, shellEnv({ KILN_DATA_DIR: dataDir, KILN_PORT: '0' }));
        expect({ command, code: result.code, output: result.output }).toEqual({ command, code: 2, output: session.output.replaceAll('8080', port) });
        expect(existsSync(dataDir), command).toBe(false);
      }
    } finally {
      occupied.close();
    }
  });

  describe('commands.md, on a running instance', () => {
    let kiln: KilnProcess;
    beforeAll(async () => {
      kiln = await startKilnProcess();
    }, 60_000);
    afterAll(() => kiln?.stop());

    it('the refused calls print the lines shown and exit 2', { timeout: 60_000 }, async () => {
      const sessions = consoleSessions(guideBlock('commands.md', '$ npx kiln admin create-token --username root --expires-at tomorrow'));
      expect(sessions).toHaveLength(2);
      for (const session of sessions) {
        const result = await runShell(session.command, shellEnv({ KILN_DATA_DIR: kiln.dataDir }));
        expect({ code: result.code, output: result.output }).toEqual({ code: 2, output: session.output });
      }
    });

    it('create-token prints a token that works, with the name and scopes given', { timeout: 60_000 }, async () => {
      const block = guideBlock('commands.md', 'TOKEN=$(npx kiln admin create-token');
      const result = await runShell(`${block}\nprintf '%s' "$TOKEN"`, shellEnv({ KILN_DATA_DIR: kiln.dataDir }));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const response = await fetch(`${kiln.url}/api/v4/personal_access_tokens/self`, { headers: { 'private-token': result.stdout } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ name: 'automation', scopes: ['api', 'sudo'], active: true });
    });

    it('configuration.md: the instance settings commands read and change the settings', { timeout: 60_000 }, async () => {
      const block = localise(guideBlock('configuration.md', '/api/v4/application/settings \\'), { 'http://127.0.0.1:8080': kiln.url });
      const commands = commandsOf(block);
      const { steps, stderr } = await runSteps([...commands, 'printf %s "$TOKEN"'], shellEnv({ KILN_DATA_DIR: kiln.dataDir }));
      expect(stderr).toBe('');
      expect(steps.map((step) => step.code)).toEqual([0, 0, 0, 0]);
      const [, read, changed, token] = steps.map((step) => step.output);
      expect(JSON.parse(read)).toMatchObject({ allow_local_requests_from_web_hooks_and_services: false, outbound_local_requests_whitelist: [] });
      expect(JSON.parse(changed)).toMatchObject({ allow_local_requests_from_web_hooks_and_services: false, outbound_local_requests_whitelist: ['10.0.5.20', 'hooks.internal'] });
      const now = await fetch(`${kiln.url}/api/v4/application/settings`, { headers: { 'private-token': token } });
      expect(await now.json()).toMatchObject({ outbound_local_requests_whitelist: ['10.0.5.20', 'hooks.internal'] });
    });

    it('reset-password from standard input sets the password (the prompting form is for people)', { timeout: 60_000 }, async () => {
      const commands = commandsOf(guideBlock('commands.md', '"$NEW_PASSWORD" | npx kiln admin reset-password')).filter((command) => !command.endsWith('# asks'));
      expect(commands).toHaveLength(1);
      const result = await runShell(commands[0], shellEnv({ KILN_DATA_DIR: kiln.dataDir, NEW_PASSWORD: 'a-new-root-password-9' }));
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const grant = await fetch(`${kiln.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'root', password: 'a-new-root-password-9' }) });
      expect(grant.status).toBe(200);
    });
  });

  it('upgrades.md: the checks between two releases run on this clone (from the newest release tag, or the first commit, to this commit)', { timeout: 60_000 }, async () => {
    const block = guideBlock('upgrades.md', 'OLD=v0.1.0 NEW=v0.2.0');
    // From the newest release tag; a clone without tags (CI checks out the branch alone) starts from
    // the first commit instead, which the same commands accept.
    const tag = (await runShell("git describe --tags --abbrev=0 --match 'v[0-9]*'", shellEnv())).stdout.trim();
    const newest = tag || (await runShell('git rev-list --max-parents=0 HEAD', shellEnv())).stdout.trim().split('\n').pop()!;
    expect(newest).toMatch(/^(v\d|[0-9a-f]{40}$)/);
    // This clone is the repository: nothing to fetch.
    const script = localise(block, { 'OLD=v0.1.0 NEW=v0.2.0': `OLD=${newest} NEW=HEAD` }).replace(/^git fetch --tags$/m, '');
    expect(script).not.toContain('git fetch');
    const result = await runShell(script, shellEnv());
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const migrationsSince = (await runShell(`git diff --name-only --diff-filter=A ${newest} HEAD -- src/platform/db/migrations/`, shellEnv())).stdout;
    expect(result.stdout.startsWith(migrationsSince)).toBe(true);
  });

  it('upgrades.md: npx kiln migrate names what it applies, then says the database is up to date', { timeout: 60_000 }, async () => {
    const sessions = consoleSessions(guideBlock('upgrades.md', '$ npx kiln migrate'));
    expect(sessions.map((session) => session.command)).toEqual(['npx kiln migrate', 'npx kiln migrate']);
    const migrations = readdirSync(join(REPO, 'src', 'platform', 'db', 'migrations')).filter((file) => /^\d/.test(file)).map((file) => file.replace(/\.ts$/, '')).sort();
    // The example's names are real migrations, in the form the command prints.
    const shown = sessions[0].output.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
    expect(shown.length).toBeGreaterThan(0);
    expect(migrations).toEqual(expect.arrayContaining(shown));
    expect(sessions[0].output).toMatch(new RegExp(`^applied ${shown.length} migrations:\\n`));

    const env = shellEnv({ KILN_DATA_DIR: join(work, 'migrated') });
    const first = await runShell(sessions[0].command, env);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`applied ${migrations.length} migrations:\n${migrations.map((name) => `  ${name}\n`).join('')}`);
    const second = await runShell(sessions[1].command, env);
    expect({ code: second.code, output: second.output }).toEqual({ code: 0, output: sessions[1].output });
  });
});
