// What a feature contributes to `npm run bench`: a scenario seeds data in-process (before the server
// starts, straight into its database) and then names the HTTP targets to load. bench/run.ts starts
// `kiln serve` and a bare node:http baseline as child processes and loads both with autocannon.
import type { Deps } from '../src/platform/deps.js';

export interface BenchServer {
  url: string;
  rootToken: string;
  /** How many git processes the server has started so far (bench/query-counter.ts); null when unknown. */
  gitProcesses?(): Promise<number | null>;
  /** The server's CPU time so far, its finished git processes' included, in ms (10 ms steps); null when unknown. */
  cpuMs?(): number | null;
  /** The time the server's garbage collections took so far, in µs (bench/query-counter.ts); null when unknown. */
  gcMicros?(): Promise<number | null>;
  /** The scenario's PostgreSQL database (scenarios with `database: 'postgres'`). */
  databaseUrl?: string;
  /** Whether the server process still runs (it has not exited or crashed). */
  running?(): boolean;
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

/**
 * The targets of a diagnostic: no goal, so the row says `reported` and fails only on errors. The
 * one-URL reads are such (docs/decisions.md): one token and one URL measure a cache's best case.
 */
export const DIAGNOSTIC: BenchTarget['targets'] = Object.freeze({});

/** The collector's share of the server's CPU over some rounds, for a row's note (both in µs). */
export function gcShare(gcMicros: number, cpuMicros: number): string {
  return cpuMicros > 0 ? `GC ${((100 * gcMicros) / cpuMicros).toFixed(0)} % of server CPU` : 'GC —';
}

/** One request of a realistic mix: a GET of `path` with the given user's token. */
export interface MixRequest {
  kind: string;
  path: string;
  token: string;
}

/**
 * Traffic shaped like real use: requests drawn at random (with repeats) from `requests`, against a
 * baseline that replays Kiln's own answers to the same requests (bench/mix.ts).
 */
export interface BenchMix {
  name: string;
  requests: MixRequest[];
  /** minTwoNodeRatio: two nodes on one database against one node's rate, in the same rounds. */
  targets: { minRatio?: number; maxP99Ms?: number; minTwoNodeRatio?: number };
  connections?: number;
}

/** Endpoints measured as the data grows: p99 at each size against p99 at the first. */
export interface BenchGrowth {
  sizes: number[];
  /** Bring the data up to `size` (straight into the database, the server stopped). */
  grow(deps: Deps, size: number, seeded: Record<string, unknown>): Promise<void>;
  targets(seeded: Record<string, unknown>): Array<{ name: string; path: string; headers?: Record<string, string> }>;
  /** The largest p99 at any size as a multiple of the p99 at the first size. */
  maxP99Growth: number;
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
  /** Realistic mixes, measured after the targets. */
  mixes?(server: BenchServer, seeded: Record<string, unknown>): Promise<BenchMix[]>;
  /** 2: the mixes also run on two `kiln serve` nodes on the scenario's one database (PostgreSQL). */
  nodes?: 1 | 2;
  growth?: BenchGrowth;
  /** The targets, given the started server and whatever seed returned. */
  targets(server: BenchServer, seeded: Record<string, unknown>): Promise<BenchTarget[]>;
  /** A scenario that measures something else than HTTP rates against the baseline (e.g. a storage move vs cp -a). */
  /** Extra KILN_* settings for both the seeding instance and the server (e.g. two storage shards). */
  env?(dataDir: string): Record<string, string>;
  custom?(server: BenchServer, seeded: Record<string, unknown>): Promise<Array<{ name: string; value: number; unit: string; baseline?: number; target: string; pass: boolean }>>;
}
