import { defineConfig } from 'vitest/config';

// Every suite runs on SQLite; when KILN_TEST_DATABASE_URL is set the database suites
// (everything but test/unit) run a second time on PostgreSQL, each file in its own schema.
const databaseSuites = ['test/**/*.test.ts'];
const excluded = ['test/clients/**', 'test/browser/**', 'node_modules/**'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true as const, test: { name: 'sqlite', include: databaseSuites, exclude: excluded, env: { KILN_TEST_DIALECT: 'sqlite' } } },
      ...(process.env.KILN_TEST_DATABASE_URL
        ? [{ extends: true as const, test: { name: 'postgres', include: databaseSuites, exclude: [...excluded, 'test/unit/**'], env: { KILN_TEST_DIALECT: 'postgres' } } }]
        : []),
    ],
  },
});
