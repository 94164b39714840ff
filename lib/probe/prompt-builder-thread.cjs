// Bootstrap of the prompt-builder worker thread: registers tsx in this thread (loader hooks of the
// parent's --import do not reach worker threads), then loads the TypeScript entry.
require('tsx/cjs/api').register();
require('./prompt-builder-thread.ts');
