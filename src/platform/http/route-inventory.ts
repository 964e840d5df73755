// Every route the app serves, with the ability it declares (platform/auth/subjects.ts). Fastify routes
// carry it in their `config`, namespaced routes in their spec; a test walks this list and fails on a
// route that declares none.
import type { FastifyInstance } from 'fastify';
import type { RouteAbility } from '../auth/subjects.js';

export interface InventoryEntry {
  method: string;
  /** A Fastify URL, or a namespaced route's pattern as text. */
  path: string;
  ability: RouteAbility | undefined;
}

const inventories = new WeakMap<FastifyInstance, InventoryEntry[]>();

export function routeInventory(app: FastifyInstance): InventoryEntry[] {
  let entries = inventories.get(app);
  if (!entries) inventories.set(app, (entries = []));
  return entries;
}

/** Records every Fastify route as it is added (call before the features register theirs). */
export function recordRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      if (method === 'HEAD' && options.method !== 'HEAD') continue;
      routeInventory(app).push({ method, path: options.url, ability: (options.config as { ability?: RouteAbility } | undefined)?.ability });
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    ability?: RouteAbility;
  }
}
