// Every route the app serves, with the ability it declares (platform/auth/subjects.ts). Fastify routes
// carry it in their `config`, namespaced routes in their spec; a test walks this list and fails on a
// route that declares none. A route that declares a project or group ability must have been
// registered by a kit that checks it before the handler (route.ts, page-route.ts): any other is
// refused here, when it is added.
import type { FastifyInstance } from 'fastify';
import type { RouteAbility } from '../auth/subjects.js';

export interface InventoryEntry {
  method: string;
  /** A Fastify URL, or a namespaced route's pattern as text. */
  path: string;
  ability: RouteAbility | undefined;
  /** The kit finds the declared project or group and checks its ability before the handler. */
  subjectChecked: boolean;
}

/** Refuse a route that declares a subject ability its kit does not check (see the file's comment). */
export function assertSubjectChecked(route: string, ability: RouteAbility | undefined, subjectChecked: boolean): void {
  if (ability && ('project' in ability || 'group' in ability) && !subjectChecked) {
    throw new Error(`${route} declares ${JSON.stringify(ability)} but is not registered by a kit that checks it before its handler (apiRoute, pageRoute, namespacedPage)`);
  }
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
    const config = options.config as { ability?: RouteAbility; subjectChecked?: boolean } | undefined;
    assertSubjectChecked(`${methods.join(',')} ${options.url}`, config?.ability, config?.subjectChecked === true);
    for (const method of methods) {
      if (method === 'HEAD' && options.method !== 'HEAD') continue;
      routeInventory(app).push({ method, path: options.url, ability: config?.ability, subjectChecked: config?.subjectChecked === true });
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    ability?: RouteAbility;
    /** Set by the route kits that find and check a declared project or group before the handler. */
    subjectChecked?: boolean;
  }
}
