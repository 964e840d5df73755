// Everything an action needs from the outside world, passed explicitly (docs/architecture.md).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DB } from './db/schema.js';
import type { Dialect } from './db/database.js';
import type { Reads } from './db/reads.js';
import type { GroupCommit } from './db/group-commit.js';
import type { InstanceCaches } from './instance-caches.js';
import type { Clock } from './clock.js';
import type { InstanceSecrets } from './secrets.js';
import type { SecretBox } from './crypto.js';
import type { AuthRegistry } from './auth/registry.js';
import type { Metrics } from './metrics.js';
import type { DomainEvents } from './domain-events.js';

export interface Deps {
  config: Config;
  db: Kysely<DB>;
  dialect: Dialect;
  /** Reads outside the query builder, and the row cache of the hot look-ups (platform/db/README.md). */
  reads: Reads;
  /** Batched writes for write-per-request hot paths, the alert endpoint's (platform/db/README.md). */
  groupCommit: GroupCommit;
  /** This app's in-memory caches (instance-caches.ts): never shared with another app of the process. */
  caches: InstanceCaches;
  clock: Clock;
  secrets: InstanceSecrets;
  box: SecretBox;
  log: Logger;
  auth: AuthRegistry;
  metrics: Metrics;
  /** Wake the in-process worker after enqueueing (a no-op when none runs here). */
  pokeWorker: () => void;
  /** Told inside a transaction what happened; listeners enqueue jobs in it (domain-events.ts). */
  domainEvents: DomainEvents;
  /**
   * How outgoing requests (webhooks, chat integrations) resolve a host name to addresses; unset: the
   * system resolver. Tests inject one to make a public-looking name resolve to a local address.
   */
  resolveHost?: (hostname: string) => Promise<string[]>;
}
