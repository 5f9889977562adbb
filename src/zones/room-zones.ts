import { DEVICE_PATHS } from '../api/protocol';

import type { DeviceRequester } from '../api/types';
import { DeviceError } from '../errors';
import { parseLayoutResponse, parseZonesResponse } from './parse';
import type { ZoneReadResult } from './types';

/**
 * Which endpoint serves a device's zones. Firmware that answers 404 on the zones endpoint but reports zones
 * in the layout is remembered by whoever holds this (the connection to the device), so that later reads
 * cost one request.
 */
export interface ZonesEndpointMemory {
  inLayout: boolean;
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

async function readLayout(
  requester: DeviceRequester,
  endpoint: ZonesEndpointMemory,
): Promise<ZoneReadResult> {
  const response = await requester.request('GET', DEVICE_PATHS.layout);
  const result = parsed(parseLayoutResponse, response.body, DEVICE_PATHS.layout);
  endpoint.inLayout = true;
  return result;
}

/**
 * The room's zones: `GET /api/v1/room/zones` as the spec says, or, on firmware that moved them,
 * the `zones` inside `GET /api/v1/room/layout`.
 */
export async function readRoomZones(
  requester: DeviceRequester,
  endpoint: ZonesEndpointMemory = { inLayout: false },
): Promise<ZoneReadResult> {
  try {
    if (endpoint.inLayout) {
      try {
        return await readLayout(requester, endpoint);
      } catch (error) {
        // Firmware changed back (or the device was swapped): forget and take the spec's road.
        if (!isCode(error, 'NOT_FOUND')) throw error;
        endpoint.inLayout = false;
      }
    }
    let response: Awaited<ReturnType<DeviceRequester['request']>>;
    try {
      response = await requester.request('GET', DEVICE_PATHS.zones);
    } catch (error) {
      if (!isCode(error, 'NOT_FOUND')) throw error;
      try {
        return await readLayout(requester, endpoint);
      } catch (layoutError) {
        if (!isCode(layoutError, 'NOT_FOUND')) throw layoutError;
        throw new DeviceError(
          'NOT_FOUND',
          `The device has neither ${DEVICE_PATHS.zones} nor ${DEVICE_PATHS.layout}: it does not report room zones`,
          layoutError.statusCode === undefined ? {} : { statusCode: layoutError.statusCode },
        );
      }
    }
    return parsed(parseZonesResponse, response.body, DEVICE_PATHS.zones);
  } catch (error) {
    if (isCode(error, 'UNSUPPORTED_MODEL')) throw unsupportedModel(error);
    throw error;
  }
}
