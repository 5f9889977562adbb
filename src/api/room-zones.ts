import { DeviceError } from '../errors';
import { parseLayoutResponse, parseZonesResponse } from '../zones/index';
import type { ZoneReadResult } from '../zones/types';
import { LAYOUT_PATH, ZONES_PATH } from './protocol';
import type { DeviceRequester } from './types';

/**
 * Devices whose firmware answers 404 on the zones endpoint but reports zones in the layout, remembered
 * for the life of the process so that later reads cost one request. Keyed by the device's address where
 * the requester has one (a DeviceClient's `baseUrl`): a new client after a redeploy then spends no 404.
 * Other requesters are remembered weakly, so nothing keeps them alive.
 */
class LayoutEndpointMemory {
  readonly #addresses = new Set<string>();
  readonly #requesters = new WeakSet<DeviceRequester>();

  has(requester: DeviceRequester): boolean {
    const address = addressOf(requester);
    return address === undefined ? this.#requesters.has(requester) : this.#addresses.has(address);
  }

  set(requester: DeviceRequester): void {
    const address = addressOf(requester);
    if (address === undefined) this.#requesters.add(requester);
    else this.#addresses.add(address);
  }

  clear(): void {
    this.#addresses.clear();
  }

  delete(requester: DeviceRequester): void {
    const address = addressOf(requester);
    if (address === undefined) this.#requesters.delete(requester);
    else this.#addresses.delete(address);
  }
}

function addressOf(requester: DeviceRequester): string | undefined {
  const address: unknown = (requester as { baseUrl?: unknown }).baseUrl;
  return typeof address === 'string' && address !== '' ? address : undefined;
}

const usesLayoutEndpoint = new LayoutEndpointMemory();

/**
 * Forgets every device address remembered to serve its zones only in the layout: for a device swapped
 * for another at the same address, and for tests whose simulators may reuse a port.
 */
export function forgetZonesEndpoints(): void {
  usesLayoutEndpoint.clear();
}

function isCode(error: unknown, code: DeviceError['code']): error is DeviceError {
  return error instanceof DeviceError && error.code === code;
}

function parsed(parse: (body: unknown) => ZoneReadResult, body: unknown, path: string): ZoneReadResult {
  try {
    return parse(body);
  } catch (error) {
    if (error instanceof DeviceError) throw error;
    throw new DeviceError(
      'BAD_RESPONSE',
      `The zones in the answer to GET ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function unsupportedModel(error: DeviceError): DeviceError {
  const said = error.deviceMessage === undefined ? '' : ` (device said: ${error.deviceMessage})`;
  return new DeviceError(
    'UNSUPPORTED_MODEL',
    `This device does not support room zones${said}: room zones need a model 410 device`,
    {
      ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      ...(error.deviceMessage === undefined ? {} : { deviceMessage: error.deviceMessage }),
    },
  );
}

async function readLayout(requester: DeviceRequester): Promise<ZoneReadResult> {
  const response = await requester.request('GET', LAYOUT_PATH);
  const result = parsed(parseLayoutResponse, response.body, LAYOUT_PATH);
  usesLayoutEndpoint.set(requester);
  return result;
}

/**
 * The room's zones: `GET /api/v1/room/zones` as the spec says, or, on firmware that moved them,
 * the `zones` inside `GET /api/v1/room/layout`.
 */
export async function readRoomZones(requester: DeviceRequester): Promise<ZoneReadResult> {
  try {
    if (usesLayoutEndpoint.has(requester)) {
      try {
        return await readLayout(requester);
      } catch (error) {
        // Firmware changed back (or the device was swapped): forget and take the spec's road.
        if (!isCode(error, 'NOT_FOUND')) throw error;
        usesLayoutEndpoint.delete(requester);
      }
    }
    let response: Awaited<ReturnType<DeviceRequester['request']>>;
    try {
      response = await requester.request('GET', ZONES_PATH);
    } catch (error) {
      if (!isCode(error, 'NOT_FOUND')) throw error;
      try {
        return await readLayout(requester);
      } catch (layoutError) {
        if (!isCode(layoutError, 'NOT_FOUND')) throw layoutError;
        throw new DeviceError(
          'NOT_FOUND',
          `The device has neither ${ZONES_PATH} nor ${LAYOUT_PATH}: it does not report room zones`,
          layoutError.statusCode === undefined ? {} : { statusCode: layoutError.statusCode },
        );
      }
    }
    return parsed(parseZonesResponse, response.body, ZONES_PATH);
  } catch (error) {
    if (isCode(error, 'UNSUPPORTED_MODEL')) throw unsupportedModel(error);
    throw error;
  }
}
