// Serialised entities kept per app by the identity and version of the rows they show (GitLab's
// `present_cached`, keyed by the record's cache_key). A row's version moves with every update of it
// (a trigger: 20261228T1416-row-versions), so an entry is never stale and needs no invalidation: a
// changed row is read with a new version and misses. The key names every row the entity shows (a
// project and its namespace); what depends on the caller (a project's `permissions`) is added to the
// JSON afterwards, never kept.
//
// Only for rows read by a SELECT: on SQLite an UPDATE's RETURNING row shows the version before the
// update's trigger moved it.
import { BoundedMap } from '../bounded-map.js';
import { cacheSlot } from '../instance-caches.js';
import type { InstanceCaches } from '../instance-caches.js';

// Entities are about a kilobyte: ~10 MB at most.
const ENTITIES = cacheSlot('http.entities', () => new BoundedMap<string, string>(10_000));

/** The JSON of the entity `key` names (its rows' ids and versions), built by `serialize` on a miss. */
export function cachedJson(caches: InstanceCaches, key: string, serialize: () => string): string {
  const entities = caches.of(ENTITIES);
  let json = entities.get(key);
  if (json === undefined) entities.set(key, (json = flat(serialize())));
  return json;
}

/**
 * `text` as one flat string. A serialiser builds its JSON by appending hundreds of pieces, which V8
 * keeps as a tree of concatenations (a cons string); joining kept entities into a listing copies
 * from that tree each time without flattening it, and a page of 20 projects spent ~10x the copy's
 * CPU walking the trees (`[${json.join(',')}]`: ~340 µs against ~36 µs for 150 KB, measured).
 * Reading a character flattens the string in place, once, when it is kept.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The kept JSON of the entity `key` names, if any. */
export function keptJson(caches: InstanceCaches, key: string): string | undefined {
  return caches.of(ENTITIES).get(key);
}

/** `json` (an object's JSON) with one more member at its end: `"name":<valueJson>`. */
export function withMember(json: string, name: string, valueJson: string): string {
  return `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"${name}":${valueJson}}`;
}
