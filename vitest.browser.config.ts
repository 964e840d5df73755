import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Pages in a real browser: Playwright-core driving Debian's Chromium, headless, never downloading one.
// Each file starts its own Kiln and browser, so files run side by side, one per core (on two cores:
// 266 s against 506 s of per-file time, one after another).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: availableParallelism(),
    // A page journey with axe checks in two themes and widths took 50 s on a quiet two-core host and
    // over 60 s in CI beside another file's Kiln and Chromium (load ~9): a hang still fails, later.
    testTimeout: 180_000,
    hookTimeout: 150_000,
  },
});
