/** The room-template benchmark's output: what N rooms of example 9's template cost one Node-RED. */
import { formatTable } from './table';

/** What one Node-RED used over a window while holding `rooms` rooms of the template. */
export interface TemplateSample {
  /** Which template: each room with its own broker connection, or all rooms sharing one. */
  variant: 'room broker' | 'shared broker';
  rooms: number;
  /** Share of one core, every thread of the process. */
  cpu: number;
  /** Heap after a full garbage collection, bytes. */
  heapUsed: number;
  /** Messages the broker received from Node-RED, a second. */
  mqttPerSecond: number;
  /** Client connections open at the broker at the end of the window. */
  mqttConnections: number;
  /** Device requests the simulators answered in the window, a second, by path without the query. */
  requestsPerSecond: Record<string, number>;
  /**
   * New connections (TLS handshakes) the simulators accepted in the window, a second: a request past the
   * keep-alive of the one before comes on a new one.
   */
  connectionsPerSecond: number;
  /** Rooms whose device had a data stream accepted after the deploy. */
  streaming: number;
  /** Rooms by the word their retained status topic said at the end of the window ("(none)": no word). */
  statusWords: Record<string, number>;
}

/** The status words of a room whose device connection works. */
const WORKING_STATUS = ['online', 'muted'];
const working = (sample: TemplateSample) =>
  WORKING_STATUS.reduce((sum, word) => sum + (sample.statusWords[word] ?? 0), 0);

const HEADER = [
  'variant',
  'rooms',
  'NR cpu',
  'cpu/room',
  'heap after GC',
  'heap/room',
  'MQTT msgs/s',
  'MQTT connections',
  'device req/s',
  'new TLS conn/s',
  'streaming',
  'status online/muted',
];

const percent = (share: number, digits: number) => `${(share * 100).toFixed(digits)}%`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const total = (byPath: Record<string, number>) => Object.values(byPath).reduce((sum, each) => sum + each, 0);

/** Per room: the sample against `base` (no rooms), divided by the rooms. */
function perRoom(sample: TemplateSample, base: TemplateSample, value: (each: TemplateSample) => number) {
  return (value(sample) - value(base)) / sample.rooms;
}

function row(sample: TemplateSample, base: TemplateSample): string[] {
  const none = sample.rooms === 0;
  return [
    sample.variant,
    String(sample.rooms),
    percent(sample.cpu, 1),
    none
      ? '-'
      : percent(
          perRoom(sample, base, (each) => each.cpu),
          3,
        ),
    `${(sample.heapUsed / 1024 / 1024).toFixed(1)} MiB`,
    none ? '-' : kib(perRoom(sample, base, (each) => each.heapUsed)),
    sample.mqttPerSecond.toFixed(1),
    String(sample.mqttConnections),
    total(sample.requestsPerSecond).toFixed(1),
    sample.connectionsPerSecond.toFixed(1),
    `${sample.streaming}/${sample.rooms}`,
    `${working(sample)}/${sample.rooms}`,
  ];
}

/** Each path's requests a second, most first: what the rooms ask their devices for. */
function requestsLine(sample: TemplateSample): string {
  const paths = Object.entries(sample.requestsPerSecond)
    .filter(([, perSecond]) => perSecond > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([path, perSecond]) => `${path} ${perSecond.toFixed(1)}`);
  return `  device requests a second, ${sample.rooms} rooms (${sample.variant}): ${paths.join(', ') || 'none'}`;
}

/** The status words, most first, of a sample where some room's status says neither online nor muted. */
function statusLine(sample: TemplateSample): string {
  const words = Object.entries(sample.statusWords)
    .sort(([, a], [, b]) => b - a)
    .map(([word, rooms]) => `${word} ${rooms}`);
  return `  status words at the end of the window, ${sample.rooms} rooms (${sample.variant}): ${words.join(', ')}`;
}

/**
 * What one room's own broker connection costs: the room-broker sample against the shared-broker sample of
 * the same size, per room; undefined when the run has no such pair.
 */
export function connectionShare(
  samples: readonly TemplateSample[],
): { rooms: number; cpu: number; heapUsed: number } | undefined {
  const shared = samples.find((each) => each.variant === 'shared broker' && each.rooms > 0);
  const own = samples.find((each) => each.variant === 'room broker' && each.rooms === shared?.rooms);
  if (shared === undefined || own === undefined) return undefined;
  return {
    rooms: shared.rooms,
    cpu: (own.cpu - shared.cpu) / shared.rooms,
    heapUsed: (own.heapUsed - shared.heapUsed) / shared.rooms,
  };
}

/** The table, the requests by path, and a room's MQTT connection's share; per room against `rooms` 0. */
export function templateReport(samples: readonly TemplateSample[]): string {
  const base = samples.find((each) => each.rooms === 0);
  if (base === undefined) throw new Error('the report needs the sample of 0 rooms as its baseline');
  const lines = [
    formatTable(
      HEADER,
      samples.map((sample) => row(sample, base)),
    ),
    '',
    ...samples.filter((sample) => sample.rooms > 0).map(requestsLine),
    ...samples.filter((sample) => working(sample) < sample.rooms).map(statusLine),
  ];
  const share = connectionShare(samples);
  if (share !== undefined) {
    const own = samples.find((each) => each.variant === 'room broker' && each.rooms === share.rooms);
    const ownHeap = own === undefined ? Number.NaN : perRoom(own, base, (each) => each.heapUsed);
    const ownCpu = own === undefined ? Number.NaN : perRoom(own, base, (each) => each.cpu);
    lines.push(
      '',
      `  a room's own MQTT connection at ${share.rooms} rooms (room broker - shared broker, per room): ` +
        `heap ${kib(share.heapUsed)} of ${kib(ownHeap)}, CPU ${percent(share.cpu, 3)} of ` +
        `${percent(ownCpu, 3)} of one core`,
      '  (shared broker: a measurement only; the rooms lose their last will, so a Node-RED that dies no ' +
        'longer marks its rooms offline)',
    );
  }
  return lines.join('\n');
}
