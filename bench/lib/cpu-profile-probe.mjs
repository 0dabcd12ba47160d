// Preloaded into a server under `npm run bench` with BENCH_PROFILE=1 (`node --import …`): the first
// SIGUSR2 starts the V8 CPU profiler, the second stops it and writes the profile to
// CPU_PROFILE_FILE, so the profile covers the measured wrk run and not start-up (unlike
// `--cpu-prof`). Benchmarks only: the service itself never reads this variable.
import fs from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.CPU_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, res) => {
      fs.writeFileSync(file, err ? JSON.stringify({ error: String(err) }) : JSON.stringify(res.profile));
    });
  });
}
