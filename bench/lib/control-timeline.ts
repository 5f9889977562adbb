/**
 * Where a control message's time goes: the package's requests, timed from undici's own diagnostics
 * channels (published by every undici client in the process, the package's too), set against the probe's
 * start and the state message's arrival. And the baseline: a bare undici client doing the same write and
 * read-back on the same simulator.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Pool } from 'undici';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { formatTable, median, percentile } from './table';

interface RequestLike {
  method?: string;
  path?: string;
}

type Stage = 'create' | 'headers' | 'end';

interface Mark {
  method: string;
  path: string;
  stage: Stage;
  at: number;
}

/** The steps a probe goes through, in order; each is timed from the end of the one before. */
export const PHASES = [
  'message -> PATCH sent (Node-RED, node, runner, client)',
  'PATCH sent -> answer headers (loopback, simulator)',
  'PATCH headers -> body read',
  'PATCH done -> GET sent (runner, client)',
  'GET sent -> answer headers (loopback, simulator)',
  'GET headers -> body read',
  'GET done -> state message at the next node (state, node, Node-RED)',
] as const;

/** Records every undici request's creation, answer headers and end while a probe runs. */
export class RequestTimeline {
  #marks: Mark[] = [];
  readonly #listeners: Array<[string, (message: unknown) => void]> = [];

  constructor() {
    const on = (channel: string, stage: Stage) => {
      const listener = (message: unknown) => {
        const request = (message as { request?: RequestLike }).request;
        if (request?.method === undefined || request.path === undefined) return;
        this.#marks.push({ method: request.method, path: request.path, stage, at: performance.now() });
      };
      diagnosticsChannel.subscribe(channel, listener);
      this.#listeners.push([channel, listener]);
    };
    on('undici:request:create', 'create');
    on('undici:request:headers', 'headers');
    on('undici:request:trailers', 'end');
  }

  reset(): void {
    this.#marks = [];
  }

  /** The probe's phases in ms (PHASES order), or undefined when its requests were not all seen. */
  phases(sentAt: number, arrivedAt: number): number[] | undefined {
    const audio = this.#marks.filter((mark) => mark.path.split('?')[0] === DEVICE_PATHS.audio);
    const find = (method: string, stage: Stage, after: number) =>
      audio.find((mark) => mark.method === method && mark.stage === stage && mark.at >= after)?.at;
    const patchSent = find('PATCH', 'create', sentAt);
    const patchHeaders = patchSent === undefined ? undefined : find('PATCH', 'headers', patchSent);
    const patchEnd = patchHeaders === undefined ? undefined : find('PATCH', 'end', patchHeaders);
    const getSent = patchEnd === undefined ? undefined : find('GET', 'create', patchEnd);
    const getHeaders = getSent === undefined ? undefined : find('GET', 'headers', getSent);
    const getEnd = getHeaders === undefined ? undefined : find('GET', 'end', getHeaders);
    const points = [sentAt, patchSent, patchHeaders, patchEnd, getSent, getHeaders, getEnd, arrivedAt];
    if (points.some((point) => point === undefined)) return undefined;
    const times = points as number[];
    return times.slice(1).map((time, index) => time - (times[index] as number));
  }

  close(): void {
    for (const [channel, listener] of this.#listeners) diagnosticsChannel.unsubscribe(channel, listener);
  }
}

/** Median and p99 of each phase over the probes, as table lines. */
export function phaseTable(probes: readonly number[][]): string {
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  return formatTable(
    ['phase', 'p50', 'p99', 'share of the p50 sum'],
    PHASES.map((phase, index) => {
      const values = probes.map((probe) => probe[index] as number);
      const total = PHASES.reduce(
        (sum, _phase, other) => sum + median(probes.map((probe) => probe[other] as number)),
        0,
      );
      return [
        phase,
        ms(median(values)),
        ms(percentile(values, 0.99)),
        `${((median(values) / total) * 100).toFixed(0)}%`,
      ];
    }),
  );
}

const CLIENT_HEADERS = { 'Vendor-Client-Id': 'bench-raw', 'Vendor-Client-Version': '0.1.0' };

/**
 * The bare client's write and read-back, as a careful user would write it with undici: PATCH the mute,
 * GET the audio, parse it; throws unless the read-back shows the mute written.
 */
export async function rawWriteAndReadBack(pool: Pool, token: string, muted: boolean): Promise<void> {
  const headers = { ...CLIENT_HEADERS, accept: 'application/json', authorization: `Vendor ${token}` };
  const written = await pool.request({
    method: 'PATCH',
    path: DEVICE_PATHS.audio,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ microphoneMute: muted }),
  });
  await written.body.text();
  if (written.statusCode >= 300) throw new Error(`raw PATCH answered HTTP ${written.statusCode}`);
  const read = await pool.request({ method: 'GET', path: DEVICE_PATHS.audio, headers });
  const body = JSON.parse(await read.body.text()) as { microphoneMute?: unknown };
  if (read.statusCode !== 200 || body.microphoneMute !== muted) {
    throw new Error(`raw read-back answered HTTP ${read.statusCode} without the mute written`);
  }
}
