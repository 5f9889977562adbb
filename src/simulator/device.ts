import { type Exchange, sendError } from './exchange';
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

export function holdsZones(model: SimulatorModel): boolean {
  return model === '410';
}

/** Serves a zone, layout or profile request on a 410; any other model answers 409 Unsupported device type. */
export function onZoneModel(
  device: DeviceContext,
  exchange: Exchange,
  serve: () => Promise<void> | void,
): Promise<void> | void {
  if (!holdsZones(device.model)) {
    sendError(exchange, 409, ['Unsupported device type']);
    return;
  }
  return serve();
}
