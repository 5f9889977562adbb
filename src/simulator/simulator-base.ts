import { fingerprintOf } from './certificate';
import { checkOption } from './options';
import type { DeviceParts } from './parts';
import type { SimulatorServer } from './server';
import { describeState } from './state';
import type {
  AnswerEncoding,
  ErrorFormat,
  RecordedRequest,
  SimulatorAccount,
  SimulatorCounters,
  SimulatorFault,
  SimulatorState,
  SimulatorStats,
} from './types';

/**
 * The simulator's server side: its address and certificate, the request records, the accounts, the live
 * streams and how answers are framed. `DeviceSimulator` adds the device's own state to it.
 */
export abstract class SimulatorBase {
  readonly certificatePem: string;
  readonly fingerprint256: string;
  protected readonly parts: DeviceParts;
  /** Made by the subclass, which is the whole of the controls the server's `/_simulator/` endpoints call. */
  protected abstract readonly server: SimulatorServer;

  protected constructor(parts: DeviceParts, certificatePem: string) {
    this.parts = parts;
    this.certificatePem = certificatePem;
    this.fingerprint256 = fingerprintOf(certificatePem);
  }

  get vendor(): string {
    return this.parts.settings.vendor;
  }

  get enrollmentCode(): string {
    return this.parts.settings.enrollmentCode;
  }

  get host(): string {
    return this.server.host;
  }

  get port(): number {
    return this.server.port;
  }

  /** `https://127.0.0.1:PORT`. */
  get url(): string {
    return this.server.url;
  }

  /** Every device request, newest last (live array; `/_simulator/` requests are not in it). */
  get requests(): RecordedRequest[] {
    return this.parts.log.requests;
  }

  /** Live counters since the last `resetRecords`. */
  get counters(): SimulatorCounters {
    return this.parts.log.counters;
  }

  /** A snapshot of the counters plus every HTTP request and TCP connection since the start. */
  stats(): SimulatorStats {
    return this.parts.log.stats();
  }

  /** Every token handed out, oldest first, for tests that look for a leaked secret. Never in the state. */
  get issuedTokens(): string[] {
    return this.parts.accounts.issuedTokens;
  }

  /** Stream connections open now. */
  get openStreams(): number {
    return this.parts.streams.openCount;
  }

  /** soundLocation events written to open streams since the start (one per stream and reading). */
  get soundLocationsWritten(): number {
    return this.parts.streams.soundLocationsWritten;
  }

  setPassword(account: SimulatorAccount, password: string): void {
    if (account !== 'general' && account !== 'admin') throw new TypeError('account must be general or admin');
    if (typeof password !== 'string') throw new TypeError('password must be a string');
    this.parts.accounts.setPassword(account, password);
  }

  /** Both passwords become the enrollment code; every token stops working; audio settings go back. Zones are kept. */
  factoryReset(): void {
    this.parts.accounts.setPassword('general', this.enrollmentCode);
    this.parts.accounts.setPassword('admin', this.enrollmentCode);
    this.parts.audio.reset();
    this.reboot();
  }

  /** Every token stops working and a calibration stops; passwords and zones are kept. */
  reboot(): void {
    this.parts.accounts.forgetTokens();
    this.parts.rateLimiter.clear();
    this.parts.streamLimiter.clear();
    this.parts.calibration.stop();
    this.parts.streams.drop();
  }

  /** The talker stands at `point` (mm) and speaks; the scripted walk stops. */
  placeTalker(point: { x: number; y: number; powerLevel?: number }): void {
    checkOption('talkerAt', point);
    if (point.powerLevel !== undefined && !Number.isFinite(point.powerLevel)) {
      throw new TypeError('powerLevel must be a finite number');
    }
    this.parts.talker.place(point, point.powerLevel);
  }

  /** Readings go on with nothing heard (powerLevel 0, voiceDetected false). */
  silenceTalker(): void {
    this.parts.talker.silence();
  }

  /** The scripted walk between the zones resumes. */
  walkTalker(): void {
    this.parts.talker.walk();
  }

  /**
   * The microphone's mute, which is the audio setting `microphoneMute`: while muted, soundLocation stops
   * and `error (soundLocation)` (503) comes at once and then repeatedly.
   */
  setMuted(muted: boolean): void {
    this.parts.audio.set({ microphoneMute: muted === true });
  }

  /** Breaks every open stream off, as a network drop would. */
  dropStreams(): void {
    this.parts.streams.drop();
  }

  /** Ends every open stream response cleanly. */
  endStreams(): void {
    this.parts.streams.end();
  }

  /** While stalled, streams send headers and then no byte at all. */
  stallStreams(stalled: boolean): void {
    this.parts.streams.setStalled(stalled === true);
  }

  /** A change event on every `/api/v1/events` stream; `undefined` data sends an empty data line. */
  emitChange(name: string, data: unknown): void {
    if (typeof name !== 'string' || name === '' || /[\r\n]/.test(name)) {
      throw new TypeError('change event name must be one line of text');
    }
    this.parts.streams.emitChange(name, data);
  }

  /** How later answers are framed: with a length, chunked, or chunked and gzip-compressed. */
  setAnswerEncoding(encoding: AnswerEncoding): void {
    checkOption('answerEncoding', encoding);
    this.parts.settings.answerEncoding = encoding;
  }

  setErrorFormat(format: ErrorFormat): void {
    checkOption('errorFormat', format);
    this.parts.settings.errorFormat = format;
  }

  /** Requests a minute per client, and the status past it: 429 or 409 "Too many requests". */
  setRateLimit(perMinute: number, status?: 429 | 409): void {
    checkOption('rateLimitPerMinute', perMinute);
    checkOption('rateLimitStatus', status);
    this.parts.rateLimiter.perMinute = perMinute;
    this.parts.rateLimiter.clear();
    if (status !== undefined) this.parts.settings.rateLimitStatus = status;
  }

  /** Replaces the current fault; null clears it. */
  setFault(fault: SimulatorFault | null): void {
    this.parts.faults.set(fault);
  }

  resetRecords(): void {
    this.parts.log.reset();
  }

  getState(): SimulatorState {
    return describeState(this.parts, this.url, this.fingerprint256);
  }

  /** Closes the server and every open socket, and drops answers still waiting on a latency fault. */
  close(): Promise<void> {
    return this.server.close();
  }
}
