/** A device connection to a test's simulator: insecure TLS (the simulator's certificate is its own). */
import { deviceSettingsFromProperties } from '../../src/api/settings';
import { DeviceConnection, type DeviceConnectionOptions } from '../../src/device/connection';
import { FilePinStorage } from '../../src/device/pin-storage';
import type { DeviceSimulator } from '../../src/simulator';

export type ConnectOptions = Partial<
  Pick<
    DeviceConnectionOptions,
    'owner' | 'stateResyncIntervalMs' | 'stateSteadyResyncIntervalMs' | 'streamIdleTimeoutMs'
  >
> & {
  password: string;
  account?: 'general' | 'admin';
  /** The config node's audio interval, in seconds. */
  audioIntervalSeconds?: number;
};

export function connectTo(sim: DeviceSimulator, options: ConnectOptions): DeviceConnection {
  const { password, account, owner, audioIntervalSeconds, ...state } = options;
  return new DeviceConnection({
    owner: owner ?? 'device',
    settings: deviceSettingsFromProperties({
      host: '127.0.0.1',
      port: sim.port,
      tls: 'insecure',
      vendor: sim.vendor,
      ...(account === undefined ? {} : { account }),
      ...(audioIntervalSeconds === undefined ? {} : { audioInterval: audioIntervalSeconds }),
    }),
    password,
    // Unused with tls insecure; a path nobody writes.
    pins: new FilePinStorage('/nonexistent/pins.json'),
    streamIdleTimeoutMs: 30_000,
    ...state,
  });
}
