/** Test support: re-exports the replay server (../replay/replay-server.ts, also used by `tokenpace replay`). */
export { startReplayServer, type ReplayServer } from '../replay/replay-server';
