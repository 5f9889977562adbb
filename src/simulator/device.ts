import type { SimulatorFirmware, SimulatorModel } from './types';

/** What every resource of the simulated device needs to know about the device, and how it announces changes. */
export interface DeviceContext {
  readonly model: SimulatorModel;
  /** Where the zones live: `classic` (their own endpoint) or `layout` (inside the room layout only). */
  readonly firmware: SimulatorFirmware;
  readonly firmwareVersion: string;
  /** The device's own address, as its hardware and network resources report it. */
  readonly ipAddress: string;
  /** A change event on every `/api/v1/events` stream. */
  announce(event: string, data: unknown): void;
}

/** Why a profile or layout endpoint refuses a model: only the 410 holds zones and profiles. */
export const UNSUPPORTED_DEVICE_TYPE = 'Unsupported device type';

export function holdsZones(model: SimulatorModel): boolean {
  return model === '410';
}
