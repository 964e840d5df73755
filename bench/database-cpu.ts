// The CPU time of the PostgreSQL backends serving one database, read from /proc (the server on this
// machine, as the bench's is): on PostgreSQL a request's cost is split between Kiln and the backends,
// and the backends run on the same cores as the server and the load generator (docs/performance.md).
import { readdirSync, readFileSync } from 'node:fs';

/** Microseconds of CPU (user + system) the backends of `database` have used so far; null when /proc has none. */
export function databaseCpuMicros(database: string): number | null {
  let ticks = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  // A backend's command line is "postgres: <cluster>: <user> <database> <client> <state>".
  const pattern = new RegExp(`^postgres: (?:.*: )?\\S+ ${database} `);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!pattern.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue;
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      found = true;
    } catch {
      /* the process ended meanwhile: its time is lost, as a closed connection's */
    }
  }
  // Clock ticks are 1/100 s on Linux (USER_HZ).
  return found ? ticks * 10_000 : null;
}
