// Loaded into the bench's `kiln serve` with `node --import` when BENCH_CPU_PROF_DIR is set (never in
// production): a V8 CPU profile of the whole server, written to that folder as the process exits.
// Node refuses `--cpu-prof` in NODE_OPTIONS, and the server is started through bin/kiln, which starts
// Node itself; the inspector's in-process session gives the same profile. Its `post` answers
// synchronously, so the profile can be taken in the `exit` handler.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = process.env.BENCH_CPU_PROF_DIR;
if (folder) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  // 1 ms between samples, as --cpu-prof's default.
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      writeFileSync(join(folder, `kiln-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
