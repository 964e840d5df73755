// Query strings, form bodies and multipart fields turned into a route's parameter bag, in one pass
// whatever the input: every pair costs work proportional to its own key, never to what came before
// (`a[]=` pairs once copied the whole array each, so 65 KB of them held the event loop for seconds).
// Limits are Rack's (QueryParser: `params_limit` 4,096 pairs, `param_depth_limit` 32 levels), checked
// before anything is built. A NUL byte in a name or value is refused as GitLab's HandleNullBytes
// middleware refuses it: no database accepts it in text, so it could only end as a 500.
import { ApiError } from './api-error.js';

export const PARAMS_LIMIT = 4096;
export const DEPTH_LIMIT = 32;

const badRequest = (problem: string) => new ApiError(400, { message: `400 Bad request - ${problem}` });

type Bag = Record<string, unknown>;

/** Bags have no prototype: a `__proto__` or `constructor` parameter is a parameter like any other. */
const newBag = (): Bag => Object.create(null) as Bag;

function isHash(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && (value as { kind?: unknown }).kind !== 'file';
}

/** `a[b][]` → ['a', 'b', '']; a name that is not of that shape is one plain segment. */
function segmentsOf(name: string): string[] {
  const open = name.indexOf('[');
  if (open <= 0 || !name.endsWith(']')) return [name];
  const segments = [name.slice(0, open)];
  let position = open;
  while (position < name.length) {
    if (name.charCodeAt(position) !== 0x5b) return [name];
    const close = name.indexOf(']', position + 1);
    if (close === -1) return [name];
    segments.push(name.slice(position + 1, close));
    position = close + 1;
  }
  return segments;
}

/** Rack's params_hash_has_key?: whether the hash already holds the path (`c` or `c[d]`) a `[]` item would fill. */
function holds(hash: Bag, path: string[], from: number): boolean {
  let current: unknown = hash;
  for (let index = from; index < path.length; index += 1) {
    if (path[index] === '') return false;
    if (!isHash(current) || !(path[index] in current)) return false;
    current = current[path[index]];
  }
  return true;
}

/**
 * Rack's normalize_params, iteratively: `a[]` appends to an array, `a[b]` fills a hash, `a[][b]` fills
 * the array's last hash unless it already has `b` (then starts the next one). A value of the wrong
 * kind in the way is replaced: the last pair wins, as it does for plain names.
 */
function nest(bag: Bag, segments: string[], value: unknown): void {
  let container: Bag = bag;
  let key = segments[0];
  for (let index = 1; index < segments.length; index += 1) {
    const segment = segments[index];
    if (segment === '') {
      const existing = container[key];
      const list: unknown[] = Array.isArray(existing) ? existing : [];
      if (list !== existing) container[key] = list;
      if (index === segments.length - 1) {
        list.push(value);
        return;
      }
      const last: unknown = list[list.length - 1];
      if (isHash(last) && !holds(last, segments, index + 1)) {
        container = last;
      } else {
        const next = newBag();
        list.push(next);
        container = next;
      }
      index += 1;
      key = segments[index];
      continue;
    }
    const existing = container[key];
    const hash = isHash(existing) ? existing : newBag();
    if (hash !== existing) container[key] = hash;
    container = hash;
    key = segment;
  }
  container[key] = value;
}

/** Collects pairs into a bag, refusing more than PARAMS_LIMIT of them or a name nested deeper than DEPTH_LIMIT. */
export class ParamCollector {
  readonly bag: Bag = newBag();
  private count = 0;

  constructor(
    /** Bodies: `a[]` arrays and `a[b]` hashes (Rails' params). Query strings keep every name flat, as Fastify's parser did and routes read them. */
    private readonly nested: boolean,
    private readonly limit = PARAMS_LIMIT,
  ) {}

  add(name: string, value: unknown): void {
    this.count += 1;
    if (this.count > this.limit) throw badRequest(`too many parameters (the limit is ${this.limit})`);
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw badRequest(`parameter ${JSON.stringify(name.replaceAll('\0', '\\0'))} contains a null byte`);
    const segments = segmentsOf(name);
    if (segments.length - 1 > DEPTH_LIMIT) throw badRequest(`parameter ${JSON.stringify(segments[0])} is nested deeper than ${DEPTH_LIMIT} levels`);
    if (!this.nested || segments.length === 1) {
      this.flat(name, value);
      return;
    }
    // Routes read bracketed names flat too (`not[labels]`, `range[start]`), as query strings give them.
    if (segments.length > 2 || segments[1] !== '') {
      if (name.endsWith('[]')) this.append(name.slice(0, -2), value);
      else this.bag[name] = value;
    }
    nest(this.bag, segments, value);
  }

  /** A plain name: a repeated one in a query string collects into an array, as Fastify's parser does. */
  private flat(name: string, value: unknown): void {
    const existing = this.bag[name];
    if (!this.nested && existing !== undefined && (typeof existing === 'string' || Array.isArray(existing))) {
      if (Array.isArray(existing)) existing.push(value);
      else this.bag[name] = [existing, value];
    } else {
      this.bag[name] = value;
    }
  }

  private append(name: string, value: unknown): void {
    const existing = this.bag[name];
    if (Array.isArray(existing)) existing.push(value);
    else this.bag[name] = [value];
  }
}

/** The pairs of `application/x-www-form-urlencoded` text (query strings and form bodies); URLSearchParams decodes in native code, linearly. */
function collect(text: string, collector: ParamCollector): Bag {
  for (const [name, value] of new URLSearchParams(text)) collector.add(name, value);
  return collector.bag;
}

/** A form body: Rails-style `key[]` arrays and `key[a][b]` hashes. */
export function parseForm(text: string, limit = PARAMS_LIMIT): Bag {
  return collect(text, new ParamCollector(true, limit));
}

/** A query string as Fastify's parser shapes it (flat names, a repeated name as an array), with the limits. */
export function parseQuery(text: string, limit = PARAMS_LIMIT): Bag {
  return collect(text, new ParamCollector(false, limit));
}

/** Where a query string's refusal waits for the request hook (`refuseBadQueries`): the router's parser may not throw. */
export const QUERY_PROBLEM = Symbol('query problem');

/** Fastify's `querystringParser`: a refused query parses to an empty bag carrying its error. */
export function routerQueryParser(text: string): Bag {
  if (text.length === 0) return newBag();
  try {
    return parseQuery(text);
  } catch (error) {
    const bag = newBag();
    (bag as Record<symbol, unknown>)[QUERY_PROBLEM] = error;
    return bag;
  }
}
