/**
 * The bare reader of the many-rooms baseline: one device's data stream held as a careful hand-written
 * client would, with undici and eventsource-parser alone. A `Client` that logs in once, a `Client` for the
 * stream (certificate unchecked: a pin costs only when a connection opens), `for await` over the body
 * (or its `data` events), and `JSON.parse` of every soundLocation reading. No zones, no change stream, no
 * reconnect. The `tls` reading goes below any HTTP library: the stream on a bare TLS socket, its request
 * written and its chunked answer taken apart here, to show what TLS and the socket alone cost.
 *
 * Plain JavaScript, so that both hosts load the same code: a process of its own
 * (raw-streams-host.ts, through tsx) and Node-RED (the bench-only node nodes/bench-bare-stream.js, which
 * Node-RED loads without tsx). The device's paths come from the package's build (`npm run build`, which
 * every benchmark that starts Node-RED needs anyway), so that they are spelt in one place.
 */
const tls = require('node:tls');
const { createParser } = require('eventsource-parser');
const { Client } = require('undici');
const { DEVICE_PATHS, STREAM_PATHS } = require('../../dist/api/protocol');

const HEADERS = { 'Vendor-Client-Id': 'bench-raw-fleet', 'Vendor-Client-Version': '1.0.0' };

/** How the body is read; a host passes one on, so a reading it forgot fails rather than falls back. */
const READINGS = ['for-await', 'data', 'tls'];

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * The data stream on a TLS socket of its own, with no HTTP library: the request written by hand, the
 * answer's head skipped and its chunked body taken apart here (each chunk's size line, its bytes, its
 * CRLF). Resolves with the socket once the answer's head has come.
 */
function openTlsStream(url, authParameters, feed, onEnd) {
  const { hostname, port, host } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
    let pending = Buffer.alloc(0);
    let headDone = false;
    socket.once('secureConnect', () => {
      const headers = {
        ...HEADERS,
        host,
        accept: 'text/event-stream',
        authorization: `Vendor ${authParameters}`,
      };
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`GET ${STREAM_PATHS.data} HTTP/1.1\r\n${lines.join('')}\r\n`);
    });
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!headDone) {
        const end = pending.indexOf(HEAD_END);
        if (end === -1) return;
        const status = pending.subarray(0, end).toString('latin1').split(' ')[1];
        if (status !== '200') {
          socket.destroy();
          reject(new Error(`the data stream answered ${status}`));
          return;
        }
        headDone = true;
        pending = pending.subarray(end + HEAD_END.length);
        resolve(socket);
      }
      let offset = 0;
      for (;;) {
        const sizeEnd = pending.indexOf(CRLF, offset);
        if (sizeEnd === -1) break;
        const size = Number.parseInt(pending.toString('latin1', offset, sizeEnd), 16);
        const start = sizeEnd + CRLF.length;
        if (pending.length < start + size + CRLF.length) break;
        feed(pending.subarray(start, start + size));
        offset = start + size + CRLF.length;
      }
      pending = pending.subarray(offset);
    });
    socket.once('error', (error) => {
      if (!headDone) reject(error);
    });
    socket.once('close', () => {
      if (headDone) onEnd();
    });
  });
}

/**
 * Logs in to the device at `url` and opens its data stream; resolves with its two clients (destroy them to
 * let go) once the stream is open. `onReading` is called for each soundLocation reading parsed, `onEnd`
 * once when the stream ends or breaks off. `reading` is how the body is read: `for-await`, as most
 * hand-written clients do, `data` events, as the package does (no promise and microtask per chunk), or
 * `tls`, on a bare TLS socket (`openTlsStream`).
 */
async function openBareStream(url, password, onReading, onEnd, reading) {
  if (!READINGS.includes(reading))
    throw new Error(`no bare reading '${reading}': one of ${READINGS.join(', ')}`);
  const connect = { rejectUnauthorized: false };
  const requests = new Client(url, { connect });
  const login = await requests.request({
    path: DEVICE_PATHS.login,
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'general', password }),
  });
  const { authParameters } = await login.body.json();
  const parser = createParser({
    onEvent: (event) => {
      if (event.event !== 'soundLocation') return;
      JSON.parse(event.data);
      onReading();
    },
  });
  if (reading === 'tls') {
    const socket = await openTlsStream(
      url,
      authParameters,
      (bytes) => parser.feed(bytes.toString('utf8')),
      onEnd,
    );
    return [requests, { destroy: async () => void socket.destroy() }];
  }
  const streaming = new Client(url, { connect, bodyTimeout: 0 });
  const answer = await streaming.request({
    path: STREAM_PATHS.data,
    method: 'GET',
    headers: { ...HEADERS, accept: 'text/event-stream', authorization: `Vendor ${authParameters}` },
  });
  if (reading === 'data') {
    let ended = false;
    const end = () => {
      if (!ended) onEnd();
      ended = true;
    };
    answer.body.on('data', (chunk) => parser.feed(chunk.toString('utf8')));
    answer.body.once('end', end);
    answer.body.once('error', end);
    answer.body.once('close', end);
    return [requests, streaming];
  }
  void (async () => {
    try {
      for await (const chunk of answer.body) parser.feed(chunk.toString('utf8'));
    } catch {
      // Reported through onEnd: the benchmark says whether every stream lasted.
    }
    onEnd();
  })();
  return [requests, streaming];
}

let turn = Promise.resolve();

/**
 * `openBareStream`, one device after the other across every caller in the process, as a paced start
 * would: the benchmark measures long after, and 1,000 handshakes at once would only slow the start.
 */
function openBareStreamInTurn(url, password, onReading, onEnd, reading) {
  const opened = turn.then(() => openBareStream(url, password, onReading, onEnd, reading));
  turn = opened.catch(() => undefined);
  return opened;
}

module.exports = { READINGS, openBareStream, openBareStreamInTurn };
