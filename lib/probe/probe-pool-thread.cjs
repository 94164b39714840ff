// Bootstrap of a probe-pool worker thread: registers tsx in this thread (loader hooks of the
// parent's --import do not reach worker threads), then loads the TypeScript entry.
require('tsx/cjs/api').register();
require('./probe-pool-thread.ts');
