// At most a few requests in flight to one destination (scheme, host and port) from this process, the
// others wait their turn: an event with a hundred hooks on one receiver, or many events at once,
// never opens a hundred connections to it (issue 33). Process-wide, like the sockets it rations.
const PER_DESTINATION = 4;

interface Destination {
  running: number;
  waiting: Array<() => void>;
}

const destinations = new Map<string, Destination>();

/** The destination of a URL; an unparsable one is its own (its request fails at once anyway). */
export function destinationOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return url;
  }
}

/** Waits for a slot of the destination; answers the function that gives it back. */
export async function acquireDestination(destination: string): Promise<() => void> {
  let entry = destinations.get(destination);
  if (!entry) destinations.set(destination, (entry = { running: 0, waiting: [] }));
  if (entry.running >= PER_DESTINATION) await new Promise<void>((resolve) => entry.waiting.push(resolve));
  else entry.running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = entry.waiting.shift();
    // The slot passes straight to the next waiter; the last one out forgets the destination.
    if (next) next();
    else if ((entry.running -= 1) === 0) destinations.delete(destination);
  };
}

export const DESTINATION_CONCURRENCY = PER_DESTINATION;
