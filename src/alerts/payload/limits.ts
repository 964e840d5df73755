// The endpoint's own limits, checked before anything else (docs/security.md; GitLab's DeepSize):
// a raw body over 1 MiB or JSON nested deeper than 100 levels is a 400.
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
export const MAX_DEPTH = 100;

/** Nesting depth of a parsed JSON value (a scalar is 0, `{}` and `[]` are 1), without recursion. */
export function jsonDepth(value: unknown, stopAfter = MAX_DEPTH + 1): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest >= stopAfter) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, level]);
    }
  }
  return deepest;
}

export function payloadTooLarge(rawBody: string | undefined, parsed: unknown): boolean {
  if (rawBody !== undefined && Buffer.byteLength(rawBody, 'utf8') > MAX_PAYLOAD_BYTES) return true;
  return jsonDepth(parsed) > MAX_DEPTH;
}
