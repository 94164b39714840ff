/**
 * Preloaded into every child of `tokenpace start` (`node --require bin/parent-watch.cjs …`).
 * The start process hands each child the read end of a pipe as file descriptor 3 and announces it
 * with TOKENPACE_PARENT_FD=3. A kill -9 of the start process sends its children no signal, but the
 * kernel closes its end of every pipe: the child sees end-of-file here and stops itself (SIGTERM to
 * itself for an orderly shutdown, a hard exit 10 s later). So no web, worker or reference server
 * outlives its start process. Without the variable (a worker started by hand) this does nothing.
 *
 * Run as a script (`node bin/parent-watch.cjs --guard <pid> <match>`), it is the guard of a process
 * that cannot load it (the embedded PostgreSQL): on end-of-file it sends that pid SIGINT (fast
 * shutdown) if /proc/<pid>/cmdline still contains <match>, then exits.
 */
'use strict';
const fs = require('node:fs');
const net = require('node:net');

function watchParent(onGone) {
  const fd = Number(process.env.TOKENPACE_PARENT_FD);
  if (!Number.isInteger(fd) || fd < 3) return false;
  delete process.env.TOKENPACE_PARENT_FD; // grandchildren (e.g. next build workers) do not inherit it
  let pipe;
  try {
    pipe = new net.Socket({ fd, readable: true, writable: false });
  } catch {
    return false;
  }
  pipe.on('data', () => {});
  pipe.on('error', () => onGone());
  pipe.on('end', () => onGone());
  pipe.on('close', () => onGone());
  pipe.unref(); // the watch alone never keeps the process alive
  return true;
}

if (require.main === module && process.argv[2] === '--guard') {
  const pid = Number(process.argv[3]);
  const match = process.argv[4] || '';
  const stopTarget = () => {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(match)) process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => process.exit(0)); // the start process stops its server itself
  if (!watchParent(stopTarget)) process.exit(2);
  setInterval(() => {}, 1 << 30); // stay alive until the pipe closes
} else {
  let gone = false;
  watchParent(() => {
    if (gone) return;
    gone = true;
    try {
      process.stderr.write(`[parent-watch] start process ${process.ppid === 1 ? 'gone' : 'closed its pipe'}: stopping pid ${process.pid}\n`);
    } catch {
      // stderr may be a broken pipe too
    }
    setTimeout(() => process.exit(1), 10_000).unref();
    process.kill(process.pid, 'SIGTERM');
  });
}
