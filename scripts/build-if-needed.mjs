// `npm start`, `npm test`, `npm run bench` and `bin/kiln.js` build first, but only when a source file is
// newer than the build, so a fresh clone builds once and later starts take about a second. The build
// takes 15–30 s on a quiet machine and longer on a busy one, so it says so on standard error (standard
// output stays the command's own: `TOKEN=$(npx kiln admin create-token …)` must get only the token).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/ is missing or older than a file of src/ or bench/ (a copy without src/ never builds). */
export function buildNeeded(root) {
  const marker = join(root, 'dist', 'src', 'main.js');
  if (!existsSync(join(root, 'src'))) return false;
  const sources = Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'bench')));
  return !existsSync(marker) || statSync(marker).mtimeMs < sources;
}

/** Build with tsc when needed; returns false (after tsc's errors) when the build failed. */
export function buildIfNeeded(root = fileURLToPath(new URL('..', import.meta.url)), log = (line) => process.stderr.write(`${line}\n`)) {
  if (!buildNeeded(root)) return true;
  const first = !existsSync(join(root, 'dist', 'src', 'main.js'));
  log(`kiln: building (TypeScript → dist/, ${first ? 'first run' : 'sources changed'}; 15–30 s, longer on a busy machine)…`);
  const started = performance.now();
  const startedAt = new Date();
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // tsc writes its errors on standard output: they go to standard error with the rest of this.
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    log(`kiln: the build failed after ${seconds} s (tsc exited with ${result.status ?? result.signal})`);
    return false;
  }
  // tsc leaves an up-to-date output untouched: date the marker so the next start skips the build, but
  // with the build's start, so a source saved while tsc ran (and perhaps read before) builds again.
  utimesSync(join(root, 'dist', 'src', 'main.js'), startedAt, startedAt);
  log(`kiln: built in ${seconds} s`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!buildIfNeeded()) process.exit(1);
}
