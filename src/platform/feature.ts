// A capability plugs into the app through this shape; src/features.ts lists them in order.
import type { FastifyInstance } from 'fastify';
import type { Deps } from './deps.js';
import type { JobHandler } from './jobs/worker.js';

export interface Feature {
  name: string;
  /** Register token resolvers and similar hooks before any route runs. */
  setup?(deps: Deps): void;
  /** Add HTTP routes (API routes through apiRoute, pages and protocol endpoints directly). */
  routes?(app: FastifyInstance, deps: Deps): void | Promise<void>;
  /** Background job handlers by kind. */
  jobs?: Record<string, JobHandler>;
  /** Work done once when a node starts, after migrations (e.g. seeding the root user). */
  onStart?(deps: Deps): Promise<void>;
}
