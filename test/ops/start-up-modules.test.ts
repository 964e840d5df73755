// What a start loads (docs/performance.md, "Start-up is module loading"): the application leaves the
// libraries only some requests need to those requests, and `kiln --version` loads neither the
// operator's checks nor the application, nor does a mistaken `kiln admin` call. Told by the modules a child process actually loaded: ES
// modules through a load hook that writes each URL to a file, CommonJS ones from require's cache.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAIN } from '../platform/process-helpers.js';
import { testDialect } from '../helpers/database.js';

const BOOTSTRAP = new URL('../../dist/src/bootstrap.js', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'kiln-modules-'));
const hook = join(work, 'hook.mjs');
const register = join(work, 'register.mjs');
writeFileSync(hook, `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.MODULES_FILE, url + '\\n'); return next(url, context); }
`);
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The files a `node` child loaded, ES modules and CommonJS alike; `script` runs as CommonJS. Fails unless it exits with `status`. */
function loadedBy(args: string[], script?: string, status = 0): string[] {
  const file = join(work, `modules-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, '');
  const printCache = 'process.on("exit", () => require("node:fs").appendFileSync(process.env.MODULES_FILE, Object.keys(require.cache).join("\\n") + "\\n"));';
  const command = script === undefined ? args : ['-e', `${printCache}${script}`];
  const child = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, ...command], { env: { PATH: process.env.PATH ?? '', MODULES_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  expect({ status: child.status, stderr: child.stderr }).toMatchObject({ status });
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

const packageIn = (files: string[], name: string) => files.some((file) => file.includes(`/node_modules/${name}/`));

// Process-wide and the same on either database: once.
describe.skipIf(testDialect() === 'postgres')('what a start loads', () => {
  it('the application leaves Linguist, the SPDX texts, nodemailer and the QR drawer to the requests that use them', () => {
    const files = loadedBy([], `import(${JSON.stringify(BOOTSTRAP)}).catch((error) => { console.error(error); process.exit(1); });`);
    expect(files.some((file) => file.endsWith('/dist/src/bootstrap.js'))).toBe(true);
    expect(packageIn(files, 'fastify')).toBe(true);
    expect(['linguist-languages', 'spdx-license-list', 'nodemailer', 'qrcode'].filter((name) => packageIn(files, name))).toEqual([]);
  });

  it('kiln --version loads neither the operator\'s checks nor the application', () => {
    const files = loadedBy([MAIN, '--version']);
    expect(files.some((file) => file.endsWith('/dist/src/main.js'))).toBe(true);
    expect(files.filter((file) => /\/dist\/src\/(bootstrap|operations\/api)\.js$/.test(file) || file.includes('/node_modules/kysely/'))).toEqual([]);
  });

  it('a mistaken kiln admin call loads neither the accounts feature nor operations', () => {
    const heavy = (files: string[]) => files.filter((file) => /\/dist\/src\/(bootstrap|accounts\/api|operations\/api)\.js$/.test(file));
    for (const call of [['explode'], ['create-token', '--bogus'], ['create-user', '--username', 'ops'], ['backup']]) {
      const files = loadedBy([MAIN, 'admin', ...call], undefined, 2);
      expect(files.some((file) => file.endsWith('/dist/src/admin-commands.js'))).toBe(true);
      expect({ call, loaded: heavy(files) }).toEqual({ call, loaded: [] });
    }
    // The check that needs the feature still loads it.
    expect(heavy(loadedBy([MAIN, 'admin', 'create-token', '--username', 'ops', '--scopes', 'bogus'], undefined, 2)).sort()).toEqual([expect.stringMatching(/accounts\/api\.js$/), expect.stringMatching(/operations\/api\.js$/)]);
  });
});
