import type { ServerResponse } from 'node:http';
import { azimuthOf, type Talker, type TalkerZone, talkerZones, zoneAt } from './talker';

/** The three Server-Sent-Event streams the simulator serves (the client side shares two: device/stream-hub.ts StreamKind). */
export type ServedStreamKind = 'data' | 'changes' | 'heartbeat';

export interface StreamTimings {
  soundLocationIntervalMs: number;
  metricsIntervalMs: number;
  heartbeatIntervalMs: number;
}

export const DEFAULT_STREAM_TIMINGS: StreamTimings = {
  soundLocationIntervalMs: 200,
  metricsIntervalMs: 5000,
  heartbeatIntervalMs: 5000,
};

/** The names the data stream knows; anything else asked for gets `error (<name>)` with 404. */
export const DATA_EVENTS = ['soundLocation', 'deviceMetrics'] as const;

interface Connection {
  kind: ServedStreamKind;
  /** Names asked for on the data stream (empty on the others). */
  events: ReadonlySet<string>;
  response: ServerResponse;
}

const MUTED_ERROR = { statusCode: 503, error: [{ message: 'Microphone muted' }] };

function frame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/**
 * Every open stream of one simulator, and the timers that feed them. Timers run only while a stream that
 * needs them is open, so an idle simulator holds none.
 */
export class EventStreams {
  readonly #connections = new Set<Connection>();
  readonly #timings: StreamTimings;
  readonly #talker: Talker;
  readonly #zones: () => unknown;
  #timers: NodeJS.Timeout[] = [];
  #muted = false;
  #stalled = false;
  #backgroundNoise = 0;
  #soundLocationsWritten = 0;

  constructor(timings: StreamTimings, talker: Talker, zones: () => unknown) {
    this.#timings = timings;
    this.#talker = talker;
    this.#zones = zones;
  }

  get openCount(): number {
    return this.#connections.size;
  }

  get muted(): boolean {
    return this.#muted;
  }

  get stalled(): boolean {
    return this.#stalled;
  }

  /** soundLocation events written to streams since the start: benchmarks divide CPU by it. */
  get soundLocationsWritten(): number {
    return this.#soundLocationsWritten;
  }

  /** Answers `response` as an event stream of `kind` and keeps it open until the client or a control ends it. */
  open(kind: ServedStreamKind, response: ServerResponse, requested: readonly string[]): void {
    const connection: Connection = { kind, events: new Set(requested), response };
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.flushHeaders();
    this.#connections.add(connection);
    response.on('close', () => {
      this.#connections.delete(connection);
      this.#updateTimers();
    });
    this.#greet(connection);
    this.#updateTimers();
  }

  setMuted(muted: boolean): void {
    if (muted === this.#muted) return;
    this.#muted = muted;
    if (muted) this.#sendMutedErrors();
  }

  /** While stalled, every stream keeps its connection and sends nothing (headers only, for new ones). */
  setStalled(stalled: boolean): void {
    this.#stalled = stalled;
  }

  /** A change event on every change stream: the path of the resource and what a GET of it returns (undefined: no body). */
  emitChange(name: string, data: unknown): void {
    const text = data === undefined ? '' : JSON.stringify(data);
    this.#broadcast((connection) => connection.kind === 'changes', name, text);
  }

  /** Breaks every stream off as a network drop would: no clean end. */
  drop(): void {
    for (const connection of this.#connections) connection.response.destroy();
  }

  /** Ends every stream cleanly (the device closed the response). */
  end(): void {
    for (const connection of this.#connections) connection.response.end();
  }

  close(): void {
    this.drop();
    this.#connections.clear();
    this.#updateTimers();
  }

  #greet(connection: Connection): void {
    if (connection.kind === 'heartbeat') {
      this.#write(connection, `retry: ${this.#timings.heartbeatIntervalMs}\n\n`);
      return;
    }
    if (connection.kind !== 'data') return;
    for (const name of connection.events) {
      if (!(DATA_EVENTS as readonly string[]).includes(name)) {
        const unknown = { statusCode: 404, error: [{ message: `Unknown event: ${name}` }] };
        this.#write(connection, frame(`error (${name})`, JSON.stringify(unknown)));
      }
    }
    if (connection.events.has('deviceMetrics')) {
      this.#write(connection, frame('deviceMetrics', JSON.stringify(this.#metrics())));
    }
    if (this.#muted && connection.events.has('soundLocation')) {
      this.#write(connection, frame('error (soundLocation)', JSON.stringify(MUTED_ERROR)));
    }
  }

  #updateTimers(): void {
    const wanted = this.#connections.size > 0;
    if (wanted && this.#timers.length === 0) {
      this.#timers = [
        setInterval(() => this.#soundLocationTick(), this.#timings.soundLocationIntervalMs),
        setInterval(() => this.#metricsTick(), this.#timings.metricsIntervalMs),
        setInterval(() => this.#heartbeatTick(), this.#timings.heartbeatIntervalMs),
      ];
    } else if (!wanted) {
      for (const timer of this.#timers) clearInterval(timer);
      this.#timers = [];
    }
  }

  #soundLocationTick(): void {
    if (this.#muted || !this.#hasData('soundLocation')) return;
    const zones = talkerZones(this.#zones());
    const step = this.#talker.next(zones);
    if (step === undefined) return;
    const reading = soundLocationReading(step.point, step.speaking, step.powerLevel, zones);
    this.#soundLocationsWritten += this.#broadcast(
      (c) => c.kind === 'data' && c.events.has('soundLocation'),
      'soundLocation',
      reading,
    );
  }

  #metricsTick(): void {
    if (this.#hasData('deviceMetrics')) {
      const metrics = JSON.stringify(this.#metrics());
      this.#broadcast((c) => c.kind === 'data' && c.events.has('deviceMetrics'), 'deviceMetrics', metrics);
    }
    if (this.#muted) this.#sendMutedErrors();
  }

  #heartbeatTick(): void {
    this.#broadcast((connection) => connection.kind === 'heartbeat', 'heartbeat', '.');
  }

  #sendMutedErrors(): void {
    const wantsLocation = (c: Connection): boolean => c.kind === 'data' && c.events.has('soundLocation');
    this.#broadcast(wantsLocation, 'error (soundLocation)', JSON.stringify(MUTED_ERROR));
  }

  #metrics(): { backgroundNoise: number } {
    // A slow deterministic drift between 28 and 34 dB, so a chart of it is not a flat line.
    this.#backgroundNoise = (this.#backgroundNoise + 1) % 7;
    return { backgroundNoise: 28 + this.#backgroundNoise };
  }

  #hasData(name: string): boolean {
    for (const connection of this.#connections) {
      if (connection.kind === 'data' && connection.events.has(name)) return true;
    }
    return false;
  }

  /** Returns how many streams the event was written to. */
  #broadcast(to: (connection: Connection) => boolean, event: string, data: string): number {
    const text = frame(event, data);
    let written = 0;
    for (const connection of this.#connections) {
      if (to(connection) && this.#write(connection, text)) written += 1;
    }
    return written;
  }

  #write(connection: Connection, text: string): boolean {
    if (this.#stalled || connection.response.destroyed || connection.response.writableEnded) return false;
    connection.response.write(text);
    return true;
  }
}

/** One `soundLocation` event's data, in the shape a real device sends (JSON text). */
export function soundLocationReading(
  point: { x: number; y: number },
  speaking: boolean,
  powerLevel: number,
  zones: readonly TalkerZone[],
): string {
  const zone = speaking ? zoneAt(zones, point) : undefined;
  return JSON.stringify({
    azimuth: azimuthOf(point),
    powerLevel: speaking ? powerLevel : 0,
    time: new Date().toISOString(),
    coordinates: { x: point.x, y: point.y },
    // A real device may spell the type as an array here while its layout uses a string.
    triggeredZones: zone === undefined ? [] : [{ type: ['Switching'], label: zone.label, id: zone.id }],
    version: 1,
    flags: {
      powerZeroedReason: speaking ? null : 'noVoiceDetected',
      speakerActive: false,
      voiceAmpModeActive: false,
      voiceDetected: speaking,
    },
  });
}
