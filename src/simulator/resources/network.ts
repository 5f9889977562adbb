import { isDeepStrictEqual } from 'node:util';
import type { DeviceContext } from '../device';
import { type Routes, sendJsonAnswer } from '../exchange';
import { type FieldTests, fieldsProblem, isBoolean, isString } from '../field-tests';
import type { NetworkFields } from '../types';
import { DEVICE_MAC } from './hardware-status';

const PATH = '/api/v1/network/configuration';

/** Read-only on the device; the controls change it, and each change is announced with no defined body. */
export class Network {
  #fields: NetworkFields = {
    isStatic: false,
    subnetMask: '255.255.255.0',
    gateway: '192.0.2.1',
    dns: ['192.0.2.1'],
  };

  constructor(private readonly device: DeviceContext) {}

  routes(): Routes {
    return {
      [PATH]: {
        minimumRole: 'general',
        methods: { GET: (exchange) => sendJsonAnswer(exchange, 200, this.body()) },
      },
    };
  }

  body(): Record<string, unknown> {
    const { isStatic, subnetMask, gateway, dns } = this.#fields;
    return {
      networkConfiguration: [
        {
          port: 'A',
          isStatic,
          ip: this.device.ipAddress,
          subnetMask,
          gateway,
          dns: [...dns],
          mac: DEVICE_MAC,
        },
      ],
    };
  }

  set(fields: Partial<NetworkFields>): void {
    const problem = fieldsProblem(fields, NETWORK_FIELDS);
    if (problem !== undefined) throw new TypeError(`network ${problem}`);
    const next = { ...this.#fields, ...fields };
    if (isDeepStrictEqual(next, this.#fields)) return;
    this.#fields = next;
    this.device.announce(PATH, {});
  }
}

const NETWORK_FIELDS: FieldTests = {
  isStatic: isBoolean,
  subnetMask: isString,
  gateway: isString,
  dns: (value) => Array.isArray(value) && value.every(isString),
};
