import type { DeviceContext } from '../device';
import { answerWrite, type Exchange, type Routes, sendError, sendProblem } from '../exchange';
import { atLeast, spelledFloor } from '../firmware';
import { NOT_JSON, parseJson, readText } from '../request-body';
import { isRecord } from '../zones';

export const DEFAULT_CALIBRATION_MS = 20_000;
const CALIBRATE_EVENT = '/api/v1/audio/calibrate';
const IDENTIFY_FLOOR = '1.8';

/**
 * `POST /api/v1/audio/calibrate` and `POST /api/v1/audio/identify`. A calibration runs for a settable time,
 * announced `started` then `completed`; a second one during a run restarts the timer and announces nothing.
 */
export class Calibration {
  #timer: NodeJS.Timeout | undefined;
  #runMs: number;

  constructor(
    private readonly device: DeviceContext,
    private readonly barUnplugged: () => boolean,
    runMs = DEFAULT_CALIBRATION_MS,
  ) {
    this.#runMs = runMs;
  }

  get calibrating(): boolean {
    return this.#timer !== undefined;
  }

  get runMs(): number {
    return this.#runMs;
  }

  /** For the next calibration (a running one keeps its time). */
  setRunMs(ms: number): void {
    this.#runMs = ms;
  }

  routes(): Routes {
    return {
      '/api/v1/audio/calibrate': {
        minimumRole: 'general',
        methods: { POST: (exchange) => this.#calibrate(exchange) },
      },
      '/api/v1/audio/identify': {
        minimumRole: 'general',
        methods: { POST: (exchange) => this.#identify(exchange) },
      },
    };
  }

  /** Stops a run without its `completed` event (the device was closed or reset). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #calibrate(exchange: Exchange): Promise<void> {
    const text = await readText(exchange);
    if (text === undefined) return;
    if (this.barUnplugged()) {
      sendError(exchange, 409, ['Speaker bar disconnected']);
      return;
    }
    if (this.#timer === undefined) this.device.announce(CALIBRATE_EVENT, { status: 'started' });
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.device.announce(CALIBRATE_EVENT, { status: 'completed' });
    }, this.#runMs);
    answerWrite(exchange, 200, parseJsonOrEmpty(text));
  }

  /** The body must be empty or hold no `port` (that is for another model); bad JSON fails the schema. */
  async #identify(exchange: Exchange): Promise<void> {
    const text = await readText(exchange);
    if (text === undefined) return;
    const body = parseJson(text);
    if (body === NOT_JSON) {
      sendProblem(exchange, 400, ['The request body is not valid JSON.']);
      return;
    }
    if (isRecord(body) && 'port' in body) {
      sendProblem(exchange, 400, ['port: The port is not supported on this device type.']);
      return;
    }
    if (!atLeast(this.device.firmwareVersion, IDENTIFY_FLOOR)) {
      sendError(exchange, 400, [`Unsupported. Firmware version is < ${spelledFloor(IDENTIFY_FLOOR)}.`]);
      return;
    }
    answerWrite(exchange, 200, body);
  }
}

function parseJsonOrEmpty(text: string): unknown {
  const body = parseJson(text);
  return body === NOT_JSON ? undefined : body;
}
