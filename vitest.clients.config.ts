import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Real clients (python-gitlab, @gitbeaker/rest, OAuth libraries, git, Alertmanager) against a started
// `kiln serve` on loopback. Each file starts its own server processes on free ports and data dirs of
// its own, so files run side by side, one per core: a file waits on its clients and servers much of
// the time (on two cores: 117 s against 215 s of per-file time, one after another).
export default defineConfig({
  test: {
    include: ['test/clients/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 150_000,
  },
});
