/**
 * Child-process entry: the baseline of the many-rooms benchmark. It holds one device data stream per
 * device with the bare reader (bare-stream.js: undici and eventsource-parser alone), in a process of its
 * own: no Node-RED. Prints `{"open":N}` once every stream is open, then answers `stats` with
 * `{"events","broken"}`, and `profile-start` and `profile-stop` (the V8 CPU profile of its thread in
 * between, sampled as Node-RED's is in the many-rooms profile) for the comparison.
 *
 * Usage: node --require tsx/cjs bench/lib/raw-streams-host.ts '{"urls":[...],"password":"...","reading":"for-await"}'
 */
import { Session } from 'node:inspector/promises';
import { type BareReading, openBareStream } from './bare-stream';
import { PROFILE_SAMPLING_MICROS } from './cpu-profile';
import { serveQueries } from './line-child';

let events = 0;
let broken = 0;

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
  const { urls, password, reading } = JSON.parse(process.argv[2] ?? '{}') as {
    urls: string[];
    password: string;
    reading: BareReading;
  };
  const clients: Array<{ destroy(): Promise<unknown> }> = [];
  // One after the other, as a paced start would: the window is measured long after.
  for (const url of urls) {
    const opened = await openBareStream(
      url,
      password,
      () => events++,
      () => broken++,
      reading,
    );
    clients.push(...opened);
  }
  serveQueries(
    { open: urls.length },
    { stats: () => ({ events, broken }), 'profile-start': startProfile, 'profile-stop': stopProfile },
    () => Promise.all(clients.map((client) => client.destroy())),
  );
}

void main();
