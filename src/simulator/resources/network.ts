import { isDeepStrictEqual } from 'node:util';
import type { DeviceContext } from '../device';
import { type Routes, sendJsonAnswer } from '../exchange';
import type { NetworkFields } from '../types';
import { isRecord } from '../zones';
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
    const problem = networkFieldsProblem(fields);
    if (problem !== undefined) throw new TypeError(`network ${problem}`);
    const next = { ...this.#fields, ...fields };
    if (isDeepStrictEqual(next, this.#fields)) return;
    this.#fields = next;
    this.device.announce(PATH, {});
  }
}

function networkFieldsProblem(fields: unknown): string | undefined {
  if (!isRecord(fields)) return 'fields must be an object';
  for (const [key, value] of Object.entries(fields)) {
    const fits =
      key === 'isStatic'
        ? typeof value === 'boolean'
        : key === 'subnetMask' || key === 'gateway'
          ? typeof value === 'string'
          : key === 'dns' && Array.isArray(value) && value.every((server) => typeof server === 'string');
    if (!fits) return `${key} is not a field, or not of its type`;
  }
  return undefined;
}
