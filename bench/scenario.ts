// What a feature contributes to `npm run bench`: a scenario seeds data in-process (before the server
// starts, straight into its database) and then names the HTTP targets to load. bench/run.ts starts
// `kiln serve` and a bare node:http baseline as child processes and loads both with autocannon.
import type { Deps } from '../src/platform/deps.js';

export interface BenchServer {
  url: string;
  rootToken: string;
}

export interface BenchTarget {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  /** A fixed body, or a function giving each request its own (e.g. rotating refresh tokens). */
  body?: string | (() => string);
  /** Pass/fail targets from the issue; the ratio is against the same-run node:http baseline. */
  /** minPreRatio: against the pre-serialised baseline (the same bytes Kiln answered, sent as they are). */
  targets: { minRatio?: number; minPreRatio?: number; maxP99Ms?: number; minRequestsPerSecond?: number };
  connections?: number;
}

export interface BenchScenario {
  name: string;
  /** 'postgres': run on a fresh database made on BENCH_POSTGRES_URL's server (default: SQLite in the data dir). */
  database?: 'sqlite' | 'postgres';
  /**
   * Load to run beside the measured targets (e.g. a steady write stream), started after the server
   * and stopped after the last target; paused while the baselines run (they share the server's core);
   * `stop` answers a short summary for the rows' notes. Only GET requests count towards the
   * statements per request of such a scenario.
   */
  background?(server: BenchServer, seeded: Record<string, unknown>): Promise<{ pause(): void; resume(): void; stop(): Promise<string> }>;
  /** Seed data straight into the database before the server starts (may be slow: bounded by the scenario). */
  seed?(deps: Deps, server: { rootToken: string }): Promise<Record<string, unknown>>;
  /** The targets, given the started server and whatever seed returned. */
  targets(server: BenchServer, seeded: Record<string, unknown>): Promise<BenchTarget[]>;
  /** A scenario that measures something else than HTTP rates against the baseline (e.g. a storage move vs cp -a). */
  /** Extra KILN_* settings for both the seeding instance and the server (e.g. two storage shards). */
  env?(dataDir: string): Record<string, string>;
  custom?(server: BenchServer, seeded: Record<string, unknown>): Promise<Array<{ name: string; value: number; unit: string; baseline?: number; target: string; pass: boolean }>>;
}
