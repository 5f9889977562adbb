/**
 * Child-process entry: the baseline of the many-rooms benchmark. It holds one device data stream per
 * device as a careful hand-written client would, with undici and eventsource-parser alone: a `Client` per
 * device that logs in once, a `Client` for the stream (certificate unchecked: a pin costs only when a
 * connection opens), `for await` over the body, and `JSON.parse` of every soundLocation reading. No
 * Node-RED, no zones, no change stream, no reconnect. Prints `{"open":N}` once every stream is open, then
 * answers `stats` with `{"events","broken"}`, and `profile-start` and `profile-stop` (the V8 CPU profile
 * of its thread in between, sampled as Node-RED's is in the many-rooms profile) for the comparison.
 *
 * Usage: node --require tsx/cjs bench/lib/raw-streams-host.ts '{"urls":[...],"password":"..."}'
 */
import { Session } from 'node:inspector/promises';
import { createParser } from 'eventsource-parser';
import { Client } from 'undici';
import { DEVICE_PATHS, STREAM_PATHS } from '../../src/api/protocol';
import { PROFILE_SAMPLING_MICROS } from './cpu-profile';
import { serveQueries } from './line-child';

const HEADERS = { 'Vendor-Client-Id': 'bench-raw-fleet', 'Vendor-Client-Version': '1.0.0' };
let events = 0;
let broken = 0;

async function openStream(url: string, password: string): Promise<Client[]> {
  const connect = { rejectUnauthorized: false };
  const requests = new Client(url, { connect });
  const login = await requests.request({
    path: DEVICE_PATHS.login,
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'general', password }),
  });
  const { authParameters } = (await login.body.json()) as { authParameters: string };
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
      events++;
    },
  });
  void (async () => {
    try {
      for await (const chunk of answer.body) parser.feed((chunk as Buffer).toString('utf8'));
    } catch {
      // Counted: the benchmark says whether every stream lasted.
    }
    broken++;
  })();
  return [requests, streaming];
}

const inspector = new Session();

async function startProfile(): Promise<Record<string, never>> {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: PROFILE_SAMPLING_MICROS });
  await inspector.post('Profiler.start');
  return {};
}

async function stopProfile(): Promise<unknown> {
  const { profile } = await inspector.post('Profiler.stop');
  await inspector.post('Profiler.disable');
  inspector.disconnect();
  return profile;
}

async function main(): Promise<void> {
  const { urls, password } = JSON.parse(process.argv[2] ?? '{}') as { urls: string[]; password: string };
  const clients: Client[] = [];
  // One after the other, as a paced start would: the window is measured long after.
  for (const url of urls) clients.push(...(await openStream(url, password)));
  serveQueries(
    { open: urls.length },
    { stats: () => ({ events, broken }), 'profile-start': startProfile, 'profile-stop': stopProfile },
    () => Promise.all(clients.map((client) => client.destroy())),
  );
}

void main();
