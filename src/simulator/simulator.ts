import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIP } from 'node:net';
import { Accounts } from './accounts';
import { type AudioSettings, defaultAudio, patchAudio } from './audio';
import { createCertificate, fingerprintOf } from './certificate';
import { handleControl } from './controls';
import { DEFAULT_HUGE_BODY_BYTES, parseFault } from './faults';
import {
  isErrorFormat,
  isLayoutSpelling,
  isSimulatorFirmware,
  isSimulatorModel,
  LAYOUT_SPELLINGS,
} from './guards';
import { BodyTooLargeError, errorBody, readBody, sendBody, sendJson } from './http';
import { validateOptions } from './options';
import { SlidingWindowRateLimiter } from './rate-limiter';
import { DEFAULT_STREAM_TIMINGS, EventStreams, type StreamKind } from './streams';
import { Talker } from './talker';
import type {
  AnswerEncoding,
  ErrorFormat,
  LayoutSpelling,
  RecordedRequest,
  SimulatorAccount,
  SimulatorControls,
  SimulatorCounters,
  SimulatorFault,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  SimulatorState,
} from './types';
import { cameraInputMap, isRecord, loadZonesFile, SAMPLE_ROOM, sampleZones, spellZones } from './zones';

export const DEFAULT_ENROLLMENT_CODE = 'KQ7-4MZ-9TD';
const MAX_CLIENT_HEADER_LENGTH = 500;
/** Keeps a long demo run from growing without bound; tests stay far below it. */
const MAX_RECORDED_REQUESTS = 10_000;
const ROLE_RANK: Record<SimulatorAccount, number> = { general: 1, admin: 2 };
const TRUNCATED_JSON = '{"zones":[{"types":["Switching"],"geometry":{"point1":{"x":-25';
const HUGE_BODY_CHUNK = Buffer.alloc(64 * 1024, 'x');

/** One device request on its way through the simulator. */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  path: string;
  record: RecordedRequest;
  encoding: AnswerEncoding;
}

interface Route {
  minimumRole: SimulatorAccount | null;
  methods: Partial<
    Record<string, (exchange: Exchange, account: SimulatorAccount | null) => Promise<void> | void>
  >;
}

/** An HTTPS stand-in for a conferencing audio device. Start it with `startSimulator`. */
export class DeviceSimulator implements SimulatorControls {
  readonly certificatePem: string;
  readonly fingerprint256: string;
  readonly vendor: string;
  readonly enrollmentCode: string;

  private readonly server: Server;
  private readonly listenHost: string;
  private listenPort = 0;
  private model: SimulatorModel;
  private firmware: SimulatorFirmware;
  private layoutSpelling: LayoutSpelling;
  private readonly layoutZoneFields: Record<string, unknown>;
  private errorFormat: ErrorFormat;
  private answerEncoding: AnswerEncoding;
  private rateLimitStatus: 429 | 409;
  private readonly rateLimiter: SlidingWindowRateLimiter;
  private readonly accounts: Accounts;
  private zones: unknown;
  private audio: AudioSettings = defaultAudio();
  private fault: SimulatorFault | null = null;
  private faultUsesLeft: number | undefined;
  private readonly recorded: RecordedRequest[] = [];
  private readonly counterValues: SimulatorCounters = {
    logins: 0,
    failedLogins: 0,
    rateLimited: 0,
    streamConnections: 0,
    requestsByPath: {},
  };
  private readonly pendingTimers = new Set<NodeJS.Timeout>();
  private readonly routes: Record<string, Route>;
  private readonly talker: Talker;
  private readonly streams: EventStreams;
  private readonly streamLimiter: SlidingWindowRateLimiter;
  private closing: Promise<void> | undefined;

  private constructor(
    options: SimulatorOptions,
    zones: unknown[],
    tls: { key: string; cert: string },
    host: string,
  ) {
    this.listenHost = host;
    this.vendor = options.vendor ?? 'Vendor';
    this.enrollmentCode = options.enrollmentCode ?? DEFAULT_ENROLLMENT_CODE;
    this.model = options.model ?? '410';
    this.firmware = options.firmware ?? 'classic';
    this.layoutSpelling = options.layoutSpelling ?? 'spec';
    this.layoutZoneFields = options.layoutZoneFields ?? {};
    this.errorFormat = options.errorFormat ?? 'errors';
    this.answerEncoding = options.answerEncoding ?? 'plain';
    this.rateLimitStatus = options.rateLimitStatus ?? 429;
    this.rateLimiter = new SlidingWindowRateLimiter(options.rateLimitPerMinute ?? 600);
    const factoryDefault = options.factoryReset === true ? this.enrollmentCode : '';
    this.accounts = new Accounts({
      general: options.passwords?.general ?? factoryDefault,
      admin: options.passwords?.admin ?? this.enrollmentCode,
    });
    this.zones = zones;
    this.talker = new Talker(options.talker ?? 'walk');
    this.streams = new EventStreams(
      {
        soundLocationIntervalMs:
          options.soundLocationIntervalMs ?? DEFAULT_STREAM_TIMINGS.soundLocationIntervalMs,
        metricsIntervalMs: options.metricsIntervalMs ?? DEFAULT_STREAM_TIMINGS.metricsIntervalMs,
        heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_STREAM_TIMINGS.heartbeatIntervalMs,
      },
      this.talker,
      () => this.zones,
    );
    this.streamLimiter = new SlidingWindowRateLimiter(options.streamConnectionsPerMinute ?? 60);
    if (options.talkerAt !== undefined) this.talker.place(options.talkerAt);
    if (options.muted === true) this.streams.setMuted(true);
    if (options.stallStreams === true) this.streams.setStalled(true);
    this.certificatePem = tls.cert;
    this.fingerprint256 = fingerprintOf(tls.cert);
    this.routes = {
      '/api/v1': { minimumRole: null, methods: { GET: (exchange) => this.describeApi(exchange) } },
      '/api/v1/heartbeat': {
        minimumRole: null,
        methods: {
          // A stream to a client that asks for one; the plain JSON answer kept for simple checks.
          GET: (exchange) =>
            acceptsEventStream(exchange.request)
              ? this.openStream(exchange, 'heartbeat')
              : sendJsonAnswer(exchange, 200, { status: 'ok' }),
        },
      },
      '/api/v1/data': {
        minimumRole: 'general',
        methods: { GET: (exchange) => this.openStream(exchange, 'data') },
      },
      '/api/v1/events': {
        minimumRole: 'general',
        methods: { GET: (exchange) => this.openStream(exchange, 'changes') },
      },
      '/api/v1/auth/login': { minimumRole: null, methods: { POST: (exchange) => this.login(exchange) } },
      '/api/v1/room/zones': {
        minimumRole: 'general',
        methods: { GET: (exchange) => this.roomZones(exchange) },
      },
      '/api/v1/room/layout': {
        minimumRole: 'general',
        methods: { GET: (exchange) => this.roomLayout(exchange) },
      },
      '/api/v1/audio': {
        minimumRole: 'general',
        methods: {
          GET: (exchange) => sendJsonAnswer(exchange, 200, this.audio),
          PATCH: (exchange) => this.patchAudio(exchange),
        },
      },
      '/api/v1/security/policy': {
        minimumRole: 'admin',
        methods: {
          GET: (exchange) =>
            sendJsonAnswer(exchange, 200, {
              passwordPolicy: { minimumLength: 8 },
              generalAccountEnabled: true,
              httpsOnly: true,
            }),
        },
      },
    };
    this.server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent) sendBody(response, 500, '');
        else response.destroy();
      });
    });
  }

  /** Use `startSimulator`; this is its implementation. */
  static async start(options: SimulatorOptions = {}): Promise<DeviceSimulator> {
    validateOptions(options);
    const host = options.host ?? '127.0.0.1';
    const zones =
      options.zones ??
      (options.zonesFile === undefined ? sampleZones() : await loadZonesFile(options.zonesFile));
    const tls = options.tls ?? (await createCertificate(host));
    const simulator = new DeviceSimulator(options, zones, tls, host);
    await simulator.listen(options.port ?? 0);
    return simulator;
  }

  get host(): string {
    return this.listenHost;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `https://127.0.0.1:PORT`; an unspecified listen address is shown as loopback, an IPv6 one in brackets. */
  get url(): string {
    const bare = this.listenHost.replace(/^\[(.*)\]$/, '$1');
    const shown = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
    return `https://${isIP(shown) === 6 ? `[${shown}]` : shown}:${this.listenPort}`;
  }

  /** Every device request, newest last (live array; `/_simulator/` requests are not in it). */
  get requests(): RecordedRequest[] {
    return this.recorded;
  }

  get counters(): SimulatorCounters {
    return this.counterValues;
  }

  /**
   * Every token this simulator handed out, oldest first, for tests that look for a leaked secret (a token
   * may be issued and never used, or used longer ago than the request log reaches). Never in the state.
   */
  get issuedTokens(): string[] {
    return this.accounts.issuedTokens;
  }

  setPassword(account: SimulatorAccount, password: string): void {
    if (account !== 'general' && account !== 'admin') throw new TypeError('account must be general or admin');
    if (typeof password !== 'string') throw new TypeError('password must be a string');
    this.accounts.setPassword(account, password);
  }

  /** Both passwords become the enrollment code; every token stops working. Zones are kept. */
  factoryReset(): void {
    this.accounts.setPassword('general', this.enrollmentCode);
    this.accounts.setPassword('admin', this.enrollmentCode);
    this.audio = defaultAudio();
    this.reboot();
  }

  /** Every token stops working; passwords and zones are kept. */
  reboot(): void {
    this.accounts.forgetTokens();
    this.rateLimiter.clear();
    this.streamLimiter.clear();
    this.streams.drop();
  }

  /** Also announced on every change stream, as a device announces an edit in its management app. */
  setZones(zones: unknown[]): void {
    this.zones = zones;
    if (this.model === '410') this.streams.emitChange('/api/v1/room/layout', this.layoutBody());
  }

  /** The talker stands at `point` (mm) and speaks; the scripted walk stops. */
  placeTalker(point: { x: number; y: number; powerLevel?: number }): void {
    if (!Number.isFinite(point?.x) || !Number.isFinite(point?.y)) {
      throw new TypeError('talker position needs finite x and y in mm');
    }
    if (point.powerLevel !== undefined && !Number.isFinite(point.powerLevel)) {
      throw new TypeError('powerLevel must be a finite number');
    }
    this.talker.place(point, point.powerLevel);
  }

  /** Readings go on with nothing heard (powerLevel 0, voiceDetected false). */
  silenceTalker(): void {
    this.talker.silence();
  }

  /** The scripted walk between the zones resumes. */
  walkTalker(): void {
    this.talker.walk();
  }

  /** While muted, soundLocation stops and `error (soundLocation)` (503) comes at once and then repeatedly. */
  setMuted(muted: boolean): void {
    this.streams.setMuted(muted === true);
  }

  /** Breaks every open stream off, as a network drop would. */
  dropStreams(): void {
    this.streams.drop();
  }

  /** Ends every open stream response cleanly. */
  endStreams(): void {
    this.streams.end();
  }

  /** While stalled, streams send headers and then no byte at all. */
  stallStreams(stalled: boolean): void {
    this.streams.setStalled(stalled === true);
  }

  /** A change event on every `/api/v1/events` stream. */
  emitChange(name: string, data: unknown): void {
    if (typeof name !== 'string' || name === '' || /[\r\n]/.test(name)) {
      throw new TypeError('change event name must be one line of text');
    }
    this.streams.emitChange(name, data);
  }

  /** Stream connections open now. */
  get openStreams(): number {
    return this.streams.openCount;
  }

  setModel(model: SimulatorModel): void {
    if (!isSimulatorModel(model)) throw new TypeError('model must be 310, 410 or X');
    this.model = model;
  }

  setFirmware(firmware: SimulatorFirmware, spelling?: LayoutSpelling): void {
    if (!isSimulatorFirmware(firmware)) throw new TypeError('firmware must be classic or layout');
    if (spelling !== undefined && !isLayoutSpelling(spelling)) {
      throw new TypeError(`layout spelling must be one of ${LAYOUT_SPELLINGS.join(', ')}`);
    }
    this.firmware = firmware;
    if (spelling !== undefined) this.layoutSpelling = spelling;
  }

  /** How later answers are framed: with a length, chunked, or chunked and gzip-compressed. */
  setAnswerEncoding(encoding: AnswerEncoding): void {
    if (encoding !== 'plain' && encoding !== 'chunked' && encoding !== 'gzip') {
      throw new TypeError('answer encoding must be plain, chunked or gzip');
    }
    this.answerEncoding = encoding;
  }

  setErrorFormat(format: ErrorFormat): void {
    if (!isErrorFormat(format)) throw new TypeError('error format must be errors or problem-details');
    this.errorFormat = format;
  }

  setRateLimit(perMinute: number, status?: 429 | 409): void {
    if (!Number.isInteger(perMinute) || perMinute < 1)
      throw new TypeError('perMinute must be an integer >= 1');
    if (status !== undefined && status !== 429 && status !== 409)
      throw new TypeError('status must be 429 or 409');
    this.rateLimiter.perMinute = perMinute;
    this.rateLimiter.clear();
    if (status !== undefined) this.rateLimitStatus = status;
  }

  /** Replaces the current fault; null clears it. */
  setFault(fault: SimulatorFault | null): void {
    const checked = parseFault(fault);
    this.fault = checked;
    this.faultUsesLeft = checked === null || checked.kind === 'latency' ? undefined : checked.times;
  }

  resetRecords(): void {
    this.recorded.length = 0;
    this.counterValues.logins = 0;
    this.counterValues.failedLogins = 0;
    this.counterValues.rateLimited = 0;
    this.counterValues.streamConnections = 0;
    for (const path of Object.keys(this.counterValues.requestsByPath))
      delete this.counterValues.requestsByPath[path];
  }

  getState(): SimulatorState {
    return {
      url: this.url,
      vendor: this.vendor,
      model: this.model,
      firmware: this.firmware,
      layoutSpelling: this.layoutSpelling,
      errorFormat: this.errorFormat,
      answerEncoding: this.answerEncoding,
      rateLimitPerMinute: this.rateLimiter.perMinute,
      rateLimitStatus: this.rateLimitStatus,
      fingerprint256: this.fingerprint256,
      accounts: {
        general: this.accounts.isBlank('general') ? 'blank' : 'set',
        admin: this.accounts.isBlank('admin') ? 'blank' : 'set',
      },
      zones: this.zones,
      fault: this.fault,
      counters: this.counterValues,
      talker: this.talker.mode,
      muted: this.streams.muted,
      streamsStalled: this.streams.stalled,
      openStreams: this.streams.openCount,
    };
  }

  /** Closes the server and every open socket, and drops answers still waiting on a latency fault. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const timer of this.pendingTimers) clearTimeout(timer);
      this.pendingTimers.clear();
      this.streams.close();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, this.listenHost.replace(/^\[(.*)\]$/, '$1'), () => {
        this.server.off('error', onError);
        const address = this.server.address();
        this.listenPort = typeof address === 'object' && address !== null ? address.port : port;
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = pathOf(request.url);
    if (path === '/_simulator' || path.startsWith('/_simulator/')) {
      await handleControl(this, request, response, path);
      return;
    }
    const record: RecordedRequest = {
      method: request.method ?? '',
      path,
      headers: flattenHeaders(request),
      status: 0,
      time: Date.now(),
    };
    this.recorded.push(record);
    if (this.recorded.length > MAX_RECORDED_REQUESTS) this.recorded.shift();
    this.counterValues.requestsByPath[path] = (this.counterValues.requestsByPath[path] ?? 0) + 1;
    const exchange: Exchange = { request, response, path, record, encoding: this.answerEncoding };

    const clientId = headerValue(request, `${this.vendor}-Client-Id`) ?? '';
    if (!this.rateLimiter.tryAcquire(`${request.socket.remoteAddress ?? ''}|${clientId}`)) {
      this.counterValues.rateLimited += 1;
      this.sendError(exchange, this.rateLimitStatus, ['Too many requests']);
      return;
    }

    const fault = this.takeFault(path);
    if (fault !== null) {
      if (fault.kind !== 'latency') {
        this.answerWithFault(exchange, fault);
        return;
      }
      await this.delay(fault.ms);
      // The caller may have given up meanwhile; its socket is gone and there is nobody to answer.
      if (this.closing !== undefined || request.socket.destroyed) return;
    }

    const headerProblems = this.clientHeaderProblems(request);
    if (headerProblems.length > 0) {
      this.sendError(exchange, 400, headerProblems);
      return;
    }

    const route = this.routes[path];
    let account: SimulatorAccount | null = null;
    if (route === undefined || route.minimumRole !== null) {
      account = this.accounts.accountOf(request.headers.authorization, this.vendor);
      if (account === null) {
        this.sendError(exchange, 401, ['Unauthorized']);
        return;
      }
    }
    if (route === undefined) {
      this.sendError(exchange, 404, ['Not found']);
      return;
    }
    if (route.minimumRole !== null && account !== null && ROLE_RANK[account] < ROLE_RANK[route.minimumRole]) {
      this.sendError(exchange, 403, ['Forbidden']);
      return;
    }
    const method = request.method ?? '';
    const handler = route.methods[method];
    if (handler === undefined) {
      response.setHeader('Allow', Object.keys(route.methods).join(', '));
      this.sendError(exchange, 405, ['Method not allowed']);
      return;
    }
    await handler(exchange, account);
  }

  private takeFault(path: string): SimulatorFault | null {
    const fault = this.fault;
    if (fault === null || (fault.path !== undefined && fault.path !== path)) return null;
    if (this.faultUsesLeft !== undefined) {
      this.faultUsesLeft -= 1;
      if (this.faultUsesLeft <= 0) {
        this.fault = null;
        this.faultUsesLeft = undefined;
      }
    }
    return fault;
  }

  private answerWithFault(exchange: Exchange, fault: Exclude<SimulatorFault, { kind: 'latency' }>): void {
    switch (fault.kind) {
      case 'reset':
        exchange.request.socket.destroy();
        return;
      case 'malformed-json':
        send(exchange, 200, TRUNCATED_JSON, 'application/json; charset=utf-8');
        return;
      case 'wrong-shape':
        sendJsonAnswer(exchange, 200, fault.body);
        return;
      case 'cut-off':
        this.sendCutOff(exchange);
        return;
      case 'huge-body':
        this.streamHugeBody(exchange, fault.bytes ?? DEFAULT_HUGE_BODY_BYTES);
        return;
      case 'huge-header':
        exchange.response.setHeader('x-padding', 'x'.repeat(fault.bytes ?? 200 * 1024));
        sendJsonAnswer(exchange, 200, {});
        return;
      case 'status': {
        if (fault.body === undefined) {
          this.sendError(exchange, fault.status, [`Simulated ${fault.status} answer`]);
          return;
        }
        send(exchange, fault.status, fault.body, fault.contentType ?? guessContentType(fault.body));
        return;
      }
    }
  }

  /** The zones answer, announced in full; the connection ends once half of it has been sent. */
  private sendCutOff(exchange: Exchange): void {
    const body = Buffer.from(JSON.stringify({ zones: this.zones }), 'utf8');
    exchange.record.status = 200;
    exchange.response.writeHead(200, {
      'Content-Length': body.length,
      'Content-Type': 'application/json; charset=utf-8',
    });
    // end(), not destroy(): the half already written must reach the client before the connection goes.
    exchange.response.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      exchange.request.socket.end();
    });
  }

  /** Chunked, so only a client that counts what it reads notices the size; stops when the client goes. */
  private streamHugeBody(exchange: Exchange, bytes: number): void {
    const { response } = exchange;
    const head = '{"zones":[],"padding":"';
    const tail = '"}';
    let left = Math.max(0, bytes - head.length - tail.length);
    exchange.record.status = 200;
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    response.write(head);
    const pump = (): void => {
      while (left > 0) {
        if (response.destroyed || this.closing !== undefined) return;
        const piece = left >= HUGE_BODY_CHUNK.length ? HUGE_BODY_CHUNK : HUGE_BODY_CHUNK.subarray(0, left);
        left -= piece.length;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end(tail);
    };
    pump();
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingTimers.delete(timer);
        resolve();
      }, ms);
      this.pendingTimers.add(timer);
    });
  }

  private clientHeaderProblems(request: IncomingMessage): string[] {
    const problems: string[] = [];
    for (const name of [`${this.vendor}-Client-Id`, `${this.vendor}-Client-Version`]) {
      const value = headerValue(request, name);
      if (value === undefined || value.trim() === '') problems.push(`${name} is missing`);
      else if (value.length > MAX_CLIENT_HEADER_LENGTH) {
        problems.push(`${name} must be at most ${MAX_CLIENT_HEADER_LENGTH} characters`);
      }
    }
    return problems;
  }

  private async login(exchange: Exchange): Promise<void> {
    const body = await this.readJsonBody(exchange);
    if (body === undefined) {
      this.counterValues.failedLogins += 1;
      return;
    }
    const problems: string[] = [];
    if (!isRecord(body)) problems.push('Request body must be a JSON object');
    else {
      const unknownMembers = Object.keys(body).filter((key) => key !== 'account' && key !== 'password');
      if (body.account !== 'general' && body.account !== 'admin')
        problems.push('Unsupported Attributes: account.');
      if (typeof body.password !== 'string') problems.push('Unsupported Attributes: password.');
      if (unknownMembers.length > 0) problems.push(`Unsupported Attributes: ${unknownMembers.join(', ')}.`);
    }
    if (problems.length > 0 || !isRecord(body)) {
      this.counterValues.failedLogins += 1;
      this.sendError(exchange, 400, problems);
      return;
    }
    const account: SimulatorAccount = body.account === 'admin' ? 'admin' : 'general';
    if (!this.accounts.passwordMatches(account, String(body.password))) {
      this.counterValues.failedLogins += 1;
      this.sendError(exchange, 401, ['Invalid account or password']);
      return;
    }
    this.counterValues.logins += 1;
    sendJsonAnswer(exchange, 200, { authParameters: this.accounts.tokenFor(account) });
  }

  /** Parses a JSON request body, or answers the error itself and returns undefined. */
  private async readJsonBody(exchange: Exchange): Promise<unknown> {
    const contentType = exchange.request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      this.sendError(exchange, 415, ['Content-Type must be application/json']);
      return undefined;
    }
    let text: string;
    try {
      text = await readBody(exchange.request);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        // The rest of the body is never read: close the connection, as web servers do, or it stalls the next request.
        exchange.response.setHeader('Connection', 'close');
        this.sendError(exchange, 413, ['Request body too large']);
        return undefined;
      }
      throw error;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      this.sendError(exchange, 400, ['Request body is not valid JSON']);
      return undefined;
    }
  }

  private describeApi(exchange: Exchange): void {
    const endpoints = Object.entries(this.routes).flatMap(([path, route]) =>
      Object.keys(route.methods).map((method) => ({
        method,
        path,
        minimumRole: route.minimumRole ?? 'none',
      })),
    );
    sendJsonAnswer(exchange, 200, {
      name: 'Conference audio device (simulator)',
      apiVersion: 'v1',
      model: this.model,
      firmwareVersion: this.firmware === 'layout' ? '4.2.0-sim' : '3.1.0-sim',
      endpoints,
    });
  }

  private roomZones(exchange: Exchange): void {
    if (this.model !== '410') {
      this.sendError(exchange, 409, ['Unsupported device type']);
      return;
    }
    if (this.firmware === 'layout') {
      this.sendError(exchange, 404, ['Not found']);
      return;
    }
    sendJsonAnswer(exchange, 200, { zones: this.zones });
  }

  private roomLayout(exchange: Exchange): void {
    if (this.model !== '410') {
      this.sendError(exchange, 409, ['Unsupported device type']);
      return;
    }
    sendJsonAnswer(exchange, 200, this.layoutBody());
  }

  private layoutBody(): Record<string, unknown> {
    const spelling = this.firmware === 'layout' ? this.layoutSpelling : 'spec';
    return {
      roomSize: {
        width: SAMPLE_ROOM.maxX - SAMPLE_ROOM.minX,
        depth: SAMPLE_ROOM.maxY - SAMPLE_ROOM.minY,
        height: SAMPLE_ROOM.height,
      },
      roomBounds: {
        point1: { x: SAMPLE_ROOM.minX, y: SAMPLE_ROOM.minY },
        point2: { x: SAMPLE_ROOM.maxX, y: SAMPLE_ROOM.maxY },
      },
      devices: [{ model: this.model, role: 'primary', position: { x: 0, y: 0, z: 2700 } }],
      zones: spellZones(
        Array.isArray(this.zones)
          ? this.zones.map((zone: unknown) => (isRecord(zone) ? { ...zone, ...this.layoutZoneFields } : zone))
          : this.zones,
        spelling,
      ),
      // Firmware that moved the zones into the layout carries the camera switcher's map beside them.
      ...(this.firmware === 'layout' ? cameraInputMap(this.zones, spelling) : {}),
    };
  }

  /**
   * An event stream, as real devices serve them: only to a client that asks for `text/event-stream` (404
   * otherwise), and at most so many connections a minute per client (429 past that).
   */
  private openStream(exchange: Exchange, kind: StreamKind): void {
    const { request } = exchange;
    if (!acceptsEventStream(request)) {
      this.sendError(exchange, 404, ['Not found']);
      return;
    }
    const clientId = headerValue(request, `${this.vendor}-Client-Id`) ?? '';
    if (!this.streamLimiter.tryAcquire(`${request.socket.remoteAddress ?? ''}|${clientId}`)) {
      this.counterValues.rateLimited += 1;
      this.sendError(exchange, 429, ['Too many requests']);
      return;
    }
    this.counterValues.streamConnections += 1;
    exchange.record.status = 200;
    const query = new URL(request.url ?? '/', 'https://device').searchParams.get('events') ?? '';
    const requested = query
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    this.streams.open(kind, exchange.response, kind === 'data' ? requested : []);
  }

  private async patchAudio(exchange: Exchange): Promise<void> {
    const body = await this.readJsonBody(exchange);
    if (body === undefined) return;
    const result = patchAudio(this.audio, body);
    if (!result.ok) {
      this.sendError(exchange, 400, result.messages);
      return;
    }
    this.audio = result.audio;
    sendJsonAnswer(exchange, 200, this.audio);
  }

  private sendError(exchange: Exchange, status: number, messages: readonly string[]): void {
    const { body, contentType } = errorBody(this.errorFormat, status, messages, exchange.path);
    send(exchange, status, body, contentType);
  }
}

export function startSimulator(options?: SimulatorOptions): Promise<DeviceSimulator> {
  return DeviceSimulator.start(options);
}

function send(exchange: Exchange, status: number, body: string, contentType?: string): void {
  exchange.record.status = status;
  sendBody(exchange.response, status, body, contentType, exchange.encoding);
}

function sendJsonAnswer(exchange: Exchange, status: number, value: unknown): void {
  exchange.record.status = status;
  sendJson(exchange.response, status, value, exchange.encoding);
}

function guessContentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json; charset=utf-8';
  } catch {
    return 'text/plain; charset=utf-8';
  }
}

function acceptsEventStream(request: IncomingMessage): boolean {
  return /\btext\/event-stream\b/i.test(headerValue(request, 'accept') ?? '');
}

/** Node lower-cases incoming header names, so this compares names case-insensitively. */
function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0] ?? '/';
  return raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
}
