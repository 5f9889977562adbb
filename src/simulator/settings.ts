import { isIP } from 'node:net';
import type { DeviceContext } from './device';
import { DEFAULT_FIRMWARE_VERSION } from './firmware';
import type {
  AnswerEncoding,
  ErrorFormat,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  WriteAnswer,
} from './types';

export const DEFAULT_ENROLLMENT_CODE = 'KQ7-4MZ-9TD';
/** Reported as the device's address when it listens on loopback or on every address. */
const DOCUMENTATION_ADDRESS = '192.0.2.10';

/** The device-wide settings every part reads: what the device is and how it answers. */
export class DeviceSettings {
  readonly vendor: string;
  readonly enrollmentCode: string;
  model: SimulatorModel;
  firmware: SimulatorFirmware;
  firmwareVersion: string;
  errorFormat: ErrorFormat;
  answerEncoding: AnswerEncoding;
  rateLimitStatus: 429 | 409;
  writeAnswer: WriteAnswer;
  bodylessEvents: Set<string>;
  readonly ipAddress: string;
  /** What the resources see of the device: these settings, read live. */
  readonly context: DeviceContext = this;
  readonly #emit: (event: string, data: unknown) => void;

  constructor(options: SimulatorOptions, host: string, emit: (event: string, data: unknown) => void) {
    this.vendor = options.vendor ?? 'Vendor';
    this.enrollmentCode = options.enrollmentCode ?? DEFAULT_ENROLLMENT_CODE;
    this.model = options.model ?? '410';
    this.firmware = options.firmware ?? 'classic';
    this.firmwareVersion = options.firmwareVersion ?? DEFAULT_FIRMWARE_VERSION;
    this.errorFormat = options.errorFormat ?? 'errors';
    this.answerEncoding = options.answerEncoding ?? 'plain';
    this.rateLimitStatus = options.rateLimitStatus ?? 429;
    this.writeAnswer = options.writeAnswer ?? 'empty-object';
    this.bodylessEvents = new Set(options.bodylessEvents ?? []);
    this.ipAddress = isIP(host) === 4 && host !== '0.0.0.0' ? host : DOCUMENTATION_ADDRESS;
    this.#emit = emit;
  }

  /** A change event on every events stream; its body left out where `bodylessEvents` says so. */
  announce(event: string, data: unknown): void {
    this.#emit(event, this.bodylessEvents.has(event) ? undefined : data);
  }
}
