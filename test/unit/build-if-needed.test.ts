// The first `npm start` / `npx kiln` on a fresh clone compiles the TypeScript: it says so at once on
// standard error, then how long it took; later runs are silent. Run on a small copy of the layout
// (scripts/build-if-needed.mjs, bin/kiln.js, a one-file src/) with the real tsc, so it takes seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = new URL('../..', import.meta.url).pathname;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the spawn to the first byte on standard error, or null. */
  firstStderrMs: number | null;
}

function runNode(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: Run = { code: null, stdout: '', stderr: '', firstStderrMs: null };
    child.stdout.on('data', (chunk) => (run.stdout += chunk));
    child.stderr.on('data', (chunk) => {
      run.firstStderrMs ??= performance.now() - started;
      run.stderr += chunk;
    });
    child.once('close', (code) => resolve({ ...run, code }));
  });
}

describe('scripts/build-if-needed.mjs', () => {
  let clone: string;

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'kiln-build-'));
    for (const dir of ['bin', 'scripts', 'src']) mkdirSync(join(clone, dir));
    copyFileSync(join(REPO, 'bin', 'kiln.js'), join(clone, 'bin', 'kiln.js'));
    copyFileSync(join(REPO, 'scripts', 'build-if-needed.mjs'), join(clone, 'scripts', 'build-if-needed.mjs'));
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
    writeFileSync(join(clone, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(clone, 'tsconfig.build.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', outDir: 'dist', rootDir: '.', types: [] }, include: ['src'] }));
    // Without @types/node (tsc reads it for seconds): the two globals main.ts uses, declared.
    writeFileSync(join(clone, 'src', 'other.ts'), 'export const other = 1;\n');
    writeFileSync(join(clone, 'src', 'main.ts'), "declare const process: { argv: string[] };\ndeclare const console: { log(text: string): void };\nconsole.log(`main ran: ${process.argv.slice(2).join(' ')}`);\n");
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it('on a fresh clone prints the building line within a second, then how long the build took, and runs the command', { timeout: 120_000 }, async () => {
    // What the machine takes to start node and print at all (seconds on a loaded one), measured just
    // before: the building line must follow within a second of that.
    const baseline = await runNode(clone, ['-e', "process.stderr.write('up')"]);
    const run = await runNode(clone, ['bin/kiln.js', 'admin', 'create-token']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^kiln: building \(TypeScript → dist\/, first run; 15–30 s, longer on a busy machine\)…$/);
    expect(run.firstStderrMs! - baseline.firstStderrMs!).toBeLessThan(1_000);
    expect(lines.at(-1)).toMatch(/^kiln: built in \d+\.\d s$/);
    // Standard output is the command's alone.
    expect(run.stdout).toBe('main ran: admin create-token\n');
    expect(readFileSync(join(clone, 'dist', 'src', 'main.js'), 'utf8')).toContain('main ran');
    // The marker is dated when the build began, before tsc wrote anything: a source saved during the
    // build is newer than it, and the next run builds again.
    expect(statSync(join(clone, 'dist', 'src', 'main.js')).mtimeMs).toBeLessThan(statSync(join(clone, 'dist', 'src', 'other.js')).mtimeMs);
  });

  it('once built, says nothing and does not build again', { timeout: 60_000 }, async () => {
    const run = await runNode(clone, ['scripts/build-if-needed.mjs']);
    expect([run.code, run.stderr, run.stdout]).toEqual([0, '', '']);
  });

  it('builds again when a source is newer than the build, saying why', { timeout: 120_000 }, async () => {
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(clone, 'src', 'main.ts'), later, later);
    const run = await runNode(clone, ['scripts/build-if-needed.mjs']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^kiln: building \(TypeScript → dist\/, sources changed; [^\n]*\n(?:.*\n)*kiln: built in \d+\.\d s\n$/);
  });

  it('a failed build says so and exits 1 without running the command', { timeout: 120_000 }, async () => {
    const later = new Date(Date.now() + 10_000);
    writeFileSync(join(clone, 'src', 'main.ts'), 'const broken: number = "text";\n');
    utimesSync(join(clone, 'src', 'main.ts'), later, later);
    const run = await runNode(clone, ['bin/kiln.js', 'serve']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error TS2322/);
    expect(run.stderr).toMatch(/kiln: the build failed after \d+\.\d s \(tsc exited with 2\)\n$/);
    expect(run.stdout).toBe('');
  });

  it('npm start (the kiln command), npm test, npm run bench and the test suites build first', () => {
    const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const name of ['test', 'bench', 'test:clients', 'test:browser']) expect(scripts[name], name).toMatch(/^node scripts\/build-if-needed\.mjs && /);
    // `npm start` is `kiln serve`: bin/kiln starts Node on bin/kiln.js, which builds first.
    expect(scripts.start).toBe('./bin/kiln serve');
    expect(readFileSync(join(REPO, 'bin', 'kiln'), 'utf8')).toMatch(/^exec node \$gc "\$here\/kiln\.js" "\$@"$/m);
    expect(readFileSync(join(REPO, 'bin', 'kiln.js'), 'utf8')).toMatch(/^if \(!buildIfNeeded\(\)\) process\.exit\(1\);$/m);
  });
});
