import { isDeepStrictEqual } from 'node:util';
import type { DeviceContext } from '../device';
import { answerWrite, type Exchange, type Routes, sendError, sendJsonAnswer } from '../exchange';
import { type FieldTests, fieldsProblem, isBoolean, isString } from '../field-tests';
import { readJsonBody } from '../request-body';
import type { CameraSwitcherFields } from '../types';
import { isRecord } from '../zones';

const EVENT = '/api/v1/integrations/camera-switcher';
const WRITABLE = ['ipOrHostname', 'port', 'username', 'password', 'accessToken', 'enabled'];
const NO_SETTING = 'At least one valid camera switcher setting must be included.';

/**
 * `/api/v1/integrations/camera-switcher`. A PATCH answers 202; only `enabled` and `ipOrHostname` are kept
 * (the credentials are taken and dropped, so no secret is ever served back).
 */
export class CameraSwitcher {
  #fields: CameraSwitcherFields = {
    enabled: true,
    ipOrHostname: '192.0.2.50',
    activeCameraInput: 'HDMI',
    integrationErrors: [],
  };

  constructor(private readonly device: DeviceContext) {}

  get enabled(): boolean {
    return this.#fields.enabled;
  }

  routes(): Routes {
    return {
      [EVENT]: {
        minimumRole: 'general',
        methods: {
          GET: (exchange) => sendJsonAnswer(exchange, 200, this.body()),
          PATCH: (exchange) => this.#patch(exchange),
        },
      },
    };
  }

  body(): Record<string, unknown> {
    return {
      ipOrHostname: this.#fields.ipOrHostname,
      port: 443,
      enabled: this.#fields.enabled,
      model: 'CAM230',
      integrationErrors: this.#fields.integrationErrors.map((error) => ({ ...error })),
      firmwareVersion: '2.3.1',
      macAddress: 'e0:e7:bb:4a:20:02',
      cameraInputs: [
        { name: 'Room camera', port: 'HDMI' },
        { name: 'Left camera', port: 'USB1' },
        { name: 'Right camera', port: 'USB2' },
      ],
      activeCameraInput: this.#fields.activeCameraInput,
    };
  }

  /** Changes what the switcher reports, announced when anything changed. */
  set(fields: Partial<CameraSwitcherFields>): void {
    const problem = fieldsProblem(fields, SWITCHER_FIELDS);
    if (problem !== undefined) throw new TypeError(`camera switcher ${problem}`);
    const next = { ...this.#fields, ...fields };
    if (isDeepStrictEqual(next, this.#fields)) return;
    this.#fields = next;
    this.device.announce(EVENT, this.body());
  }

  async #patch(exchange: Exchange): Promise<void> {
    const body = await readJsonBody(exchange);
    if (body === undefined) return;
    if (!isRecord(body) || Object.keys(body).length === 0) {
      sendError(exchange, 400, [NO_SETTING]);
      return;
    }
    const unknown = Object.keys(body).find((key) => !WRITABLE.includes(key));
    if (unknown !== undefined) {
      sendError(exchange, 400, [`Unsupported Attributes: ${unknown}.`]);
      return;
    }
    if ('enabled' in body && typeof body.enabled !== 'boolean') {
      sendError(exchange, 400, ['Unsupported Attributes: enabled. Expected boolean.']);
      return;
    }
    if ('ipOrHostname' in body && typeof body.ipOrHostname !== 'string') {
      sendError(exchange, 400, ['Unsupported Attributes: ipOrHostname. Expected string.']);
      return;
    }
    this.set({
      ...(typeof body.enabled === 'boolean' ? { enabled: body.enabled } : {}),
      ...(typeof body.ipOrHostname === 'string' ? { ipOrHostname: body.ipOrHostname } : {}),
    });
    answerWrite(exchange, 202, body);
  }
}

const SWITCHER_FIELDS: FieldTests = {
  enabled: isBoolean,
  ipOrHostname: isString,
  activeCameraInput: (value) => value === null || isString(value),
  integrationErrors: (value) =>
    Array.isArray(value) &&
    value.every((error) => isRecord(error) && Number.isInteger(error.code) && isString(error.description)),
};
