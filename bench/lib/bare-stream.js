/**
 * The bare reader of the many-rooms baseline: one device's data stream held as a careful hand-written
 * client would, with undici and eventsource-parser alone. A `Client` that logs in once, a `Client` for the
 * stream (certificate unchecked: a pin costs only when a connection opens), `for await` over the body
 * (or its `data` events), and `JSON.parse` of every soundLocation reading. No zones, no change stream, no
 * reconnect.
 *
 * Plain JavaScript, so that both hosts load the same code: a process of its own
 * (raw-streams-host.ts, through tsx) and Node-RED (the bench-only node nodes/bench-bare-stream.js, which
 * Node-RED loads without tsx). The device's paths come from the package's build (`npm run build`, which
 * every benchmark that starts Node-RED needs anyway), so that they are spelt in one place.
 */
const { createParser } = require('eventsource-parser');
const { Client } = require('undici');
const { DEVICE_PATHS, STREAM_PATHS } = require('../../dist/api/protocol');

const HEADERS = { 'Vendor-Client-Id': 'bench-raw-fleet', 'Vendor-Client-Version': '1.0.0' };

/**
 * Logs in to the device at `url` and opens its data stream; resolves with its two clients (destroy them to
 * let go) once the stream is open. `onReading` is called for each soundLocation reading parsed, `onEnd`
 * once when the stream ends or breaks off. `reading` is how the body is read: `for-await`, as most
 * hand-written clients do, or `data` events, as the package does (no promise and microtask per chunk).
 */
async function openBareStream(url, password, onReading, onEnd, reading = 'for-await') {
  const connect = { rejectUnauthorized: false };
  const requests = new Client(url, { connect });
  const login = await requests.request({
    path: DEVICE_PATHS.login,
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'general', password }),
  });
  const { authParameters } = await login.body.json();
  const streaming = new Client(url, { connect, bodyTimeout: 0 });
  const answer = await streaming.request({
    path: STREAM_PATHS.data,
    method: 'GET',
    headers: { ...HEADERS, accept: 'text/event-stream', authorization: `Vendor ${authParameters}` },
  });
  const parser = createParser({
    onEvent: (event) => {
      if (event.event !== 'soundLocation') return;
      JSON.parse(event.data);
      onReading();
    },
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

module.exports = { openBareStream, openBareStreamInTurn };
