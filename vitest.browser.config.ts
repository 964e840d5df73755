import { defineConfig } from 'vitest/config';

// Pages in a real browser: Playwright-core driving Debian's Chromium, headless, never downloading one.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 150_000,
  },
});
