/**
 * Preloaded into the web process (`node --require bin/peer-address.cjs next start`, see
 * cli/start-command.ts). Next gives route handlers no access to the TCP socket, and it
 * keeps a client's own `X-Forwarded-For` as is, so the peer address would be lost. For every HTTP
 * request this writes the socket's remote address into `x-tokenpace-peer-address`, after dropping
 * any copy the client sent, and marks the process so app/api/_lib/rate-limit.ts trusts the header
 * (decision record 080). Without this preload the header is ignored and the address is 'unknown'.
 */
'use strict';
const http = require('node:http');

const HEADER = 'x-tokenpace-peer-address';
const MARK = Symbol.for('tokenpace.peerAddressHeader');
const INSTALLED = Symbol.for('tokenpace.peerAddressPreloadInstalled');

globalThis[MARK] = HEADER;
if (!globalThis[INSTALLED]) {
  globalThis[INSTALLED] = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithPeerAddress(event, req) {
    if ((event === 'request' || event === 'checkContinue' || event === 'checkExpectation') && req && req.headers) {
      delete req.headers[HEADER];
      if (Array.isArray(req.rawHeaders)) {
        const raw = [];
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
          if (String(req.rawHeaders[i]).toLowerCase() !== HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
        }
        req.rawHeaders.length = 0;
        req.rawHeaders.push(...raw);
      }
      const peer = req.socket && req.socket.remoteAddress;
      if (peer) {
        req.headers[HEADER] = peer;
        if (Array.isArray(req.rawHeaders)) req.rawHeaders.push(HEADER, peer);
      }
    }
    return emit.apply(this, arguments);
  };
}
