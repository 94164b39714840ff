// Bootstrap of a probe-pool worker thread: first takes the pool's niceness for this thread only
// (Linux setpriority(PRIO_PROCESS, 0) acts on the calling thread; decision 166), so even loading
// the code yields to the probe loop, then registers tsx in this thread (loader hooks of the
// parent's --import do not reach worker threads), then loads the TypeScript entry.
const { workerData } = require('node:worker_threads');
if (workerData && workerData.niceness > 0) {
  try {
    require('node:os').setPriority(workerData.niceness);
  } catch {
    // not permitted or not supported here: the thread runs at the process's priority
  }
}
require('tsx/cjs/api').register();
require('./probe-pool-thread.ts');
