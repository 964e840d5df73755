// Cache state per app: each app (startKiln) has its own InstanceCaches on `deps.caches`, and a module
// declares its cache with `cacheSlot` (how to make it, no entries) and reaches it through the app:
//
//   const OPENED_KEYS = cacheSlot('alerts.opened-keys', () => new BoundedMap<string, string>(1000));
//   deps.caches.of(OPENED_KEYS).get(sealed);
//
// so two apps in one process (tests, a worker beside a server) never see each other's entries. Code
// that has a request but no deps reaches them as `request.server.caches` (app.ts).

export interface CacheSlot<T> {
  readonly name: string;
  readonly make: () => T;
  /** Position in every app's list of caches (array access: these are asked on hot paths). */
  readonly index: number;
}

const slots: CacheSlot<unknown>[] = [];

/** Declares a cache; `make` runs once per app, on first use. */
export function cacheSlot<T>(name: string, make: () => T): CacheSlot<T> {
  const slot: CacheSlot<T> = { name, make, index: slots.length };
  slots.push(slot);
  return slot;
}

export class InstanceCaches {
  readonly #values: unknown[] = [];

  of<T>(slot: CacheSlot<T>): T {
    let value = this.#values[slot.index] as T | undefined;
    if (value === undefined) this.#values[slot.index] = value = slot.make();
    return value;
  }

  /** Entries per cache made so far (a Map's size; 1 for any other value), for diagnostics and tests. */
  sizes(): Record<string, number> {
    const sizes: Record<string, number> = {};
    this.#values.forEach((value, index) => {
      if (value !== undefined) sizes[slots[index].name] = value instanceof Map ? value.size : 1;
    });
    return sizes;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's caches, the same object as `deps.caches`. */
    caches: InstanceCaches;
  }
}
