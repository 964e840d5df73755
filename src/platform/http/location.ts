// Location headers built from user input (a sign-in's `return_to`, an OAuth client's redirect URI)
// may hold characters that HTTP headers cannot carry: Node refuses them when the response is written,
// which was a 500. Browsers send such characters percent-encoded as UTF-8, so the same is sent here.

const HAS_OUTSIDE = /[^\x21-\x7e]/;
const OUTSIDE_PRINTABLE_ASCII = /[^\x21-\x7e]+/g;

/** `location` with every character outside printable ASCII percent-encoded; `%XX` already there stays. */
export function encodeLocation(location: string): string {
  if (!HAS_OUTSIDE.test(location)) return location;
  // Buffer.from turns a lone surrogate into U+FFFD instead of throwing, as encodeURI would.
  return location.replace(OUTSIDE_PRINTABLE_ASCII, (run) =>
    Array.from(Buffer.from(run, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
