import { defineConfig } from 'vitest/config';

// Every suite runs on SQLite; when KILN_TEST_DATABASE_URL is set the database suites
// (everything but test/unit) run a second time on PostgreSQL, each file in its own schema.
//
// Files share their worker's module cache (`isolate: false`): importing Kiln's ~1,200 modules through
// Vitest's module runner cost ~1.8 s per file, more than most files' tests, so a fresh module graph per
// file was over half of `npm test`. Every file still gets its own database and its own Kiln (testKiln);
// Kiln keeps per-instance state on its Deps, and what a module keeps is process-wide by design. The
// files that replace a module with vi.mock run isolated: a mocked module must not leak into the next file.
const databaseSuites = ['test/**/*.test.ts'];
const mockingModules = ['test/api/repository-pages-hostile.test.ts', 'test/unit/git-threads.test.ts'];
const excluded = ['test/clients/**', 'test/browser/**', 'node_modules/**'];

function suites(name: string, dialect: 'sqlite' | 'postgres', exclude: string[]) {
  const env = { KILN_TEST_DIALECT: dialect };
  return [
    { extends: true as const, test: { name, include: databaseSuites, exclude: [...exclude, ...mockingModules], env, isolate: false } },
    { extends: true as const, test: { name: `${name}-isolated`, include: mockingModules, exclude, env, isolate: true } },
  ];
}

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...suites('sqlite', 'sqlite', excluded),
      ...(process.env.KILN_TEST_DATABASE_URL ? suites('postgres', 'postgres', [...excluded, 'test/unit/**']) : []),
    ],
  },
});
