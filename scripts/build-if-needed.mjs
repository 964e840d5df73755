// `npm start` and `npm run bench` build first, but only when a source file is newer than the build,
// so a fresh clone builds once and later starts take about a second.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const marker = join(root, 'dist', 'src', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'bench')));
if (!existsSync(marker) || statSync(marker).mtimeMs < sources) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  // tsc leaves an up-to-date output untouched; touch the marker so the next start skips the build.
  const now = new Date();
  (await import('node:fs')).utimesSync(marker, now, now);
}
