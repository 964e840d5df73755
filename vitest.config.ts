import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Every suite runs on SQLite; when KILN_TEST_DATABASE_URL is set the database suites
// (everything but test/unit) run a second time on PostgreSQL, each file in its own schema.
//
// Files share their worker's module cache (`isolate: false`): importing Kiln's ~1,200 modules through
// Vitest's module runner cost ~1.8 s per file, more than most files' tests, so a fresh module graph per
// file was over half of `npm test`. Every file still gets its own database and its own Kiln (testKiln);
// Kiln keeps per-instance state on its Deps, and what a module keeps is process-wide by design. Three
// kinds of file run isolated: those that replace a module with vi.mock (a mocked module must not leak
// into the next file, and one already imported by an earlier file would not be replaced), those that
// assert on process-wide state an earlier file has used (the Markdown worker pool's counters), and
// those that leave such state behind (asciidoc.test.ts loads Asciidoctor, whose Opal runtime adds
// methods to built-in prototypes and so breaks ESLint in the lint tests after it; Kiln itself loads
// Asciidoctor only on its own worker thread, a realm of its own).
const databaseSuites = ['test/**/*.test.ts'];
const onProcessState = ['test/api/markdown-bounded.test.ts', 'test/api/asciidoc.test.ts'];
const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts')).map((file) => `test/${file}`);
const isolatedFiles = [...testFiles.filter((file) => readFileSync(file, 'utf8').includes('vi.mock(')), ...onProcessState];
const excluded = ['test/clients/**', 'test/browser/**', 'node_modules/**'];

function suites(name: string, dialect: 'sqlite' | 'postgres', exclude: string[]) {
  const env = { KILN_TEST_DIALECT: dialect };
  return [
    { extends: true as const, test: { name, include: databaseSuites, exclude: [...exclude, ...isolatedFiles], env, isolate: false } },
    { extends: true as const, test: { name: `${name}-isolated`, include: isolatedFiles, exclude, env, isolate: true } },
  ];
}

export default defineConfig({
  test: {
    pool: 'forks',
    // One worker per core, not Vitest's default of one fewer (a single worker on a two-core machine): a
    // worker spends much of its time waiting on git processes and PostgreSQL, and the kernel's share of
    // spawning git from a large worker (copying its page tables) runs beside the other worker. On two
    // cores the SQLite half took 827 s with two workers against ~1,550 s of per-file time with one.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...suites('sqlite', 'sqlite', excluded),
      ...(process.env.KILN_TEST_DATABASE_URL ? suites('postgres', 'postgres', [...excluded, 'test/unit/**']) : []),
    ],
  },
});
