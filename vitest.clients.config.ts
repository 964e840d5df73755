import { defineConfig } from 'vitest/config';

// Real clients (python-gitlab, @gitbeaker/rest, OAuth libraries, git, Alertmanager) against a started
// `kiln serve` on loopback. Files run one after another: each starts its own server processes.
export default defineConfig({
  test: {
    include: ['test/clients/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 150_000,
  },
});
