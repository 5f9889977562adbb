/** Public shapes of the device simulator. No Node-RED import here. */

export type SimulatorModel = '310' | '410' | 'X';

/** `classic`: zones at `/api/v1/room/zones`. `layout` (newer firmware): zones only inside `/api/v1/room/layout`. */
export type SimulatorFirmware = 'classic' | 'layout';

/** How zone fields are spelled inside `/api/v1/room/layout`, as seen in different public documents. */
export type LayoutSpelling = 'spec' | 'type-string' | 'zoneId' | 'ZoneLabel' | 'mixed';

/** `errors`: `{"errors":[{"message"}]}`. `problem-details`: the newer `{type,title,instance,errorLevel,problems}`. */
export type ErrorFormat = 'errors' | 'problem-details';

export type SimulatorAccount = 'general' | 'admin';

/** How device answers are framed: with a length (default), chunked, or chunked and gzip-compressed. */
export type AnswerEncoding = 'plain' | 'chunked' | 'gzip';

export interface SimulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: a free port (the CLI defaults to 8443). */
  port?: number;
  /** Word in the Authorization scheme and the two client header names. Default 'Vendor'. */
  vendor?: string;
  /** Default '410'. */
  model?: SimulatorModel;
  /** Default: `general` blank (an older deployment), `admin` the enrollment code. */
  passwords?: { general?: string; admin?: string };
  /** Start as after a factory reset: both passwords default to the enrollment code. */
  factoryReset?: boolean;
  /** `XXX-XXX-XXX`. Default 'KQ7-4MZ-9TD'. */
  enrollmentCode?: string;
  /** Default: three sample zones of the public example room. Not validated, so tests can serve bad shapes. */
  zones?: unknown[];
  /** JSON file: an array of zones or `{ zones: [...] }`, at most 8. Ignored when `zones` is given. */
  zonesFile?: string;
  /** Default 'classic'. */
  firmware?: SimulatorFirmware;
  /** Default 'spec'. */
  layoutSpelling?: LayoutSpelling;
  /**
   * Fields every zone carries in `/api/v1/room/layout` (and its change events) but not at
   * `/api/v1/room/zones`, as the public example layout's `on: true`. Default none.
   */
  layoutZoneFields?: Record<string, unknown>;
  /** Per client (remote address + client id), sliding window of one minute. Default 600. */
  rateLimitPerMinute?: number;
  /** Status of a rate-limited answer. Default 429 (one documentation page says 409). */
  rateLimitStatus?: 429 | 409;
  /** Shape of every error body. Default 'errors'. */
  errorFormat?: ErrorFormat;
  /** The simulated talker: `walk` (default) a scripted walk between the zones, `still` where placed, `off` none. */
  talker?: 'walk' | 'still' | 'off';
  /** How answers are framed on the wire. Default 'plain' (with Content-Length). */
  answerEncoding?: AnswerEncoding;
  /** Start with the talker standing and speaking here (mm); implies `talker: 'still'`. */
  talkerAt?: { x: number; y: number };
  /** Start with the microphone muted. */
  muted?: boolean;
  /** Start with every event stream stalled (headers, then nothing). */
  stallStreams?: boolean;
  /** Between two soundLocation events. Default 200. */
  soundLocationIntervalMs?: number;
  /** Between two deviceMetrics events (and muted errors). Default 5000. */
  metricsIntervalMs?: number;
  /** Between two heartbeat events. Default 5000. */
  heartbeatIntervalMs?: number;
  /** Event-stream connections a minute per client before 429. Default 60. */
  streamConnectionsPerMinute?: number;
  /** Reuse a key and certificate (PEM) instead of making a new self-signed one, e.g. to keep a pinned fingerprint. */
  tls?: { key: string; cert: string };
}

/**
 * A fault replaces the normal answer of matching requests. `path` undefined = every device path
 * (never `/_simulator/`); `times` undefined = until cleared, otherwise it clears itself after that many.
 */
export type SimulatorFault =
  /** Wait before answering normally. */
  | { kind: 'latency'; ms: number; path?: string }
  /** Answer this status; body defaults to an error body in the current format. */
  | { kind: 'status'; status: number; body?: string; contentType?: string; path?: string; times?: number }
  /** Destroy the socket without answering. */
  | { kind: 'reset'; path?: string; times?: number }
  /** 200 with a truncated JSON body. */
  | { kind: 'malformed-json'; path?: string; times?: number }
  /** 200 with this JSON. */
  | { kind: 'wrong-shape'; body: unknown; path?: string; times?: number }
  /** 200 whose Content-Length promises the whole answer; the connection closes after half of it. */
  | { kind: 'cut-off'; path?: string; times?: number }
  /** 200 streaming `bytes` (default 20 MiB) of JSON without a Content-Length, as fast as the client reads. */
  | { kind: 'huge-body'; bytes?: number; path?: string; times?: number }
  /** Answer 200 with one response header this large (default 200 KiB), as a broken proxy might. */
  | { kind: 'huge-header'; bytes?: number; path?: string; times?: number };

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** As received (lower-case names), Authorization included: never print it. */
  headers: Record<string, string>;
  /** Status answered; 0 while pending or when the socket was reset. */
  status: number;
  /** Arrival, ms since the epoch. */
  time: number;
}

export interface SimulatorCounters {
  /** Logins answered 200. */
  logins: number;
  /** Logins refused: 401 wrong password or 400 malformed body. */
  failedLogins: number;
  /** Requests answered with the rate-limit status (stream connections past their limit included). */
  rateLimited: number;
  /** Event-stream connections accepted (data, changes and heartbeat). */
  streamConnections: number;
  /** Every device request (not `/_simulator/`) by path without query. */
  requestsByPath: Record<string, number>;
}

/** What `GET /_simulator/state` answers. Never holds a password or token. */
export interface SimulatorState {
  url: string;
  vendor: string;
  model: SimulatorModel;
  firmware: SimulatorFirmware;
  layoutSpelling: LayoutSpelling;
  errorFormat: ErrorFormat;
  rateLimitPerMinute: number;
  rateLimitStatus: 429 | 409;
  fingerprint256: string;
  accounts: Record<SimulatorAccount, 'blank' | 'set'>;
  zones: unknown;
  fault: SimulatorFault | null;
  counters: SimulatorCounters;
  answerEncoding: AnswerEncoding;
  talker: 'walk' | 'still' | 'off';
  muted: boolean;
  streamsStalled: boolean;
  openStreams: number;
}

/**
 * What the `/_simulator/` controls do to a simulator (DeviceSimulator implements it). A type of its own,
 * so the controls module needs nothing from the simulator module that serves it.
 */
export interface SimulatorControls {
  readonly requests: RecordedRequest[];
  getState(): SimulatorState;
  setZones(zones: unknown[]): void;
  setPassword(account: SimulatorAccount, password: string): void;
  reboot(): void;
  factoryReset(): void;
  setFault(fault: SimulatorFault | null): void;
  setModel(model: SimulatorModel): void;
  setFirmware(firmware: SimulatorFirmware, spelling?: LayoutSpelling): void;
  setErrorFormat(format: ErrorFormat): void;
  setRateLimit(perMinute: number, status?: 429 | 409): void;
  setAnswerEncoding(encoding: AnswerEncoding): void;
  resetRecords(): void;
  placeTalker(point: { x: number; y: number; powerLevel?: number }): void;
  silenceTalker(): void;
  walkTalker(): void;
  setMuted(muted: boolean): void;
  dropStreams(): void;
  endStreams(): void;
  stallStreams(stalled: boolean): void;
  emitChange(name: string, data: unknown): void;
}
