// A preload for profiling a topology process mid-run: `NODE_OPTIONS='--require <this file>'` (Node 20 refuses
// `--cpu-prof` in NODE_OPTIONS). The first SIGUSR2 starts a V8 CPU profile (1 ms sampling); the next writes it to
// $CPU_PROFILE_DIR (default the working directory) as <service>-<pid>.cpuprofile, for Chrome DevTools or speedscope.
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

let session = null;
process.on('SIGUSR2', () => {
  if (!session) {
    session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 1000 }, () => session.post('Profiler.start')),
    );
    return;
  }
  const running = session;
  session = null;
  running.post('Profiler.stop', (err, result) => {
    running.disconnect();
    if (err) return void process.emitWarning(`CPU profile not written: ${err.message}`);
    const service = path.basename(path.dirname(path.dirname(process.argv[1] ?? 'node')));
    const file = path.join(process.env.CPU_PROFILE_DIR ?? process.cwd(), `${service}-${process.pid}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(result.profile));
    process.emitWarning(`CPU profile written to ${file}`);
  });
});
