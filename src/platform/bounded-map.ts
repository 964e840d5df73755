// The one bound for the in-memory caches: a Map that never holds more than `limit` entries.
//
// Where a cache lives: anything derived from an app's data, secrets or configuration is held per app
// (`deps.caches`, instance-caches.ts), so two apps in one process never see each other's entries. A
// module-level BoundedMap is only for a pure function of its key, whose entries would be the same in
// every app (a hash of a text, a compiled pattern).
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super();
  }

  /** Adds or replaces; a new key beyond the limit pushes out the entry added least recently. */
  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }

  /**
   * The entry, counted as the most recently added from now on (least recently used goes first).
   * Plain `get` leaves the order alone: cheaper, for caches whose entries are all alike.
   */
  refresh(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      this.delete(key);
      super.set(key, value);
    }
    return value;
  }
}
