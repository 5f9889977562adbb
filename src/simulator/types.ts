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

/** What a successful write answers (UNCERTAIN on real devices): `{}` (default), no body, or the request echoed. */
export type WriteAnswer = 'empty-object' | 'empty-body' | 'echo';

export type LedName = 'console' | 'networkA';
export type LedColour = 'none' | 'red' | 'yellow' | 'green';
export type LedState = 'off' | 'solid' | 'pulsing' | 'blinking' | 'flashing';
export interface LedLight {
  colour: LedColour;
  state: LedState;
}

/** `usb.status` and `deviceComponents.status` of `GET /api/v1/status`. */
export type ConnectionStatus = 'connected' | 'disconnected' | 'unknown';

/** The `usbConnection` event's data: `{status}` (the schema, default) or `{connected: bool}` (a tutorial). */
export type UsbEventForm = 'status' | 'connected';

/** `speakerVolume` range and the step of one volume change (UNCERTAIN: 0-20 by 1, or 0-100 by about 5). */
export interface VolumeScale {
  max: 20 | 100;
  step: number;
}

/** What the controls may change of the camera switcher; the names of its `GET`. */
export interface CameraSwitcherFields {
  enabled: boolean;
  ipOrHostname: string;
  activeCameraInput: string | null;
  integrationErrors: { code: number; description: string }[];
}

/** Port A's configuration as `GET /api/v1/network/configuration` lists it (the address is the device's). */
export interface NetworkFields {
  isStatic: boolean;
  subnetMask: string;
  gateway: string;
  dns: string[];
}

/** A room profile (model 410). `zones`, when given, are the zones the room has while it is active. */
export interface SimulatorProfile {
  profileId: string;
  name: string;
  zones?: unknown[];
}

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
  /** Start with the microphone muted (the audio setting `microphoneMute`; no soundLocation then). */
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
  /** `1.9.278056-0`-like; every firmware floor and ceiling is compared with it. Default '1.9.278056-0'. */
  firmwareVersion?: string;
  /** Start with speaker bar 2 (bar 1 on a 310) unplugged: calibrate answers 409. */
  barUnplugged?: boolean;
  /** Default: both green and solid. */
  leds?: Partial<Record<LedName, LedLight>>;
  /** Default 'connected'. */
  usb?: ConnectionStatus;
  /** Default 'connected' ('disconnected' while a bar is unplugged). */
  components?: ConnectionStatus;
  /** Room profiles of a 410, at most 3 with unique names. Default: three sample profiles. */
  profiles?: SimulatorProfile[];
  /** Id of the active profile. Default the first. */
  activeProfile?: string;
  /** How long a calibration runs before its `completed` event. Default 20000. */
  calibrationMs?: number;
  /** Default `{ max: 20, step: 1 }`. */
  volumeScale?: VolumeScale;
  /** Default 'empty-object'. */
  writeAnswer?: WriteAnswer;
  /** Default 'status'. */
  usbEventForm?: UsbEventForm;
  /** Change events sent with an empty data line instead of a body (for example the network event). */
  bodylessEvents?: string[];
  /** Fields added to every zone of the room layout (not of the zones endpoint), e.g. `{ on: true }`. */
  layoutZoneExtras?: Record<string, unknown>;
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

/** Counters since the start, for tests: read them before and after, never reach into the simulator. */
export interface SimulatorStats extends SimulatorCounters {
  /** Every HTTP request the server received, `/_simulator/` controls included. */
  httpRequests: number;
  /** Every TCP connection the server accepted (a TLS handshake alone counts). */
  connections: number;
}

/** What `GET /_simulator/state` answers. Never holds a password, token or the enrollment code. */
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
  firmwareVersion: string;
  audio: Record<string, unknown>;
  volumeScale: VolumeScale;
  barUnplugged: boolean;
  leds: Record<LedName, LedLight>;
  usb: ConnectionStatus;
  components: ConnectionStatus;
  profiles: { profileId: string; name: string; active: boolean }[];
  calibrating: boolean;
  calibrationMs: number;
  cameraSwitcherEnabled: boolean;
  writeAnswer: WriteAnswer;
  usbEventForm: UsbEventForm;
  bodylessEvents: string[];
  layoutZoneExtras: Record<string, unknown> | null;
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
  setFirmwareVersion(version: string): void;
  setWriteAnswer(answer: WriteAnswer): void;
  setAudio(fields: Record<string, unknown>): void;
  setVolumeScale(scale: VolumeScale): void;
  setBarUnplugged(unplugged: boolean): void;
  setLed(led: LedName, light: LedLight): void;
  setUsb(status: ConnectionStatus): void;
  setUsbEventForm(form: UsbEventForm): void;
  setComponents(status: ConnectionStatus): void;
  setProfiles(profiles: SimulatorProfile[], activeProfileId?: string): void;
  activateProfile(profileId: string): void;
  setCalibrationMs(ms: number): void;
  setCameraSwitcher(fields: Partial<CameraSwitcherFields>): void;
  setNetwork(fields: Partial<NetworkFields>): void;
  setBodylessEvents(names: string[]): void;
  setLayoutZoneExtras(extras: Record<string, unknown> | null): void;
}
