// A probe-pool thread that loads like the real one and then dies on its first probe, as a thread
// does on an uncaught error (lib/probe/read-path-attacks.test.ts: the pool must fail that probe
// and send later ones to its live threads, never to the dead one).
const { parentPort } = require('node:worker_threads');

parentPort.on('message', (m) => {
  if (m.kind === 'probe') setTimeout(() => process.exit(7), 50);
});
parentPort.postMessage({ kind: 'ready' });
