/**
 * A hostile device floods the change stream with events too large to pass, their names after their data
 * (lost when the cap is passed before the whole event has come): the connection tells of it once per
 * stream connection, with the size, and the zones (which such an event may have changed) are read again.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { deviceSettingsFromProperties } from '../../src/api/settings';
import { DeviceConnection } from '../../src/device/connection';
import { FilePinStorage } from '../../src/device/pin-storage';
import type { DeviceError } from '../../src/errors';
import { sampleZones } from '../../src/simulator';
import { PASSWORD } from '../api/helpers';
import { HostileDevice } from '../api/hostile-device';
import { delay, until } from '../support/wait';

/** A layout event of about 70,000 bytes whose `event:` line comes after its data. */
const NAMELESS_HUGE_EVENT = `data: ${JSON.stringify({ padding: 'x'.repeat(70_000) })}\nevent: ${DEVICE_PATHS.layout}\n\n`;

describe('device/connection: a change stream flooded with events over the size cap', () => {
  let device: HostileDevice | undefined;
  let connection: DeviceConnection | undefined;

  afterEach(async () => {
    await connection?.close();
    await device?.close();
    connection = undefined;
    device = undefined;
  });

  it('tells of the flood once, naming the size, and reads the zones again', async () => {
    device = await HostileDevice.start((request, response) => {
      const path = request.url?.split('?', 1)[0];
      if (path === DEVICE_PATHS.zones) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ zones: sampleZones() }));
        return true;
      }
      if (path !== DEVICE_PATHS.events) return false;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': open\n\n');
      // After the first read of the zones: what the flood brings about is a second one.
      setTimeout(() => {
        for (let index = 0; index < 20; index++) response.write(NAMELESS_HUGE_EVENT);
      }, 200);
      return true;
    });
    connection = new DeviceConnection({
      owner: 'device',
      settings: deviceSettingsFromProperties({ host: '127.0.0.1', port: device.port, tls: 'insecure' }),
      password: PASSWORD,
      pins: new FilePinStorage('/nonexistent/pins.json'),
      streamIdleTimeoutMs: 30_000,
    });
    const told: DeviceError[] = [];
    connection.on('streamDropped', (warning) => told.push(warning));
    const heard: number[] = [];
    connection.zones.subscribe({ onZones: (zones) => heard.push(zones.zones.length) });
    await until(() => heard.length === 1, 'the first read of the zones');
    await until(() => (device?.count(DEVICE_PATHS.zones) ?? 0) >= 2, 'the zones read again', 5000);
    await delay(300);
    should(told).have.length(1);
    should(told[0]?.message).match(/ on \/api\/v1\/events \(70\d{3} bytes\) is larger than 65536 bytes/);
    // Coalesced: the first dropped event's read, and at most one more for the rest of the flood.
    should(device.count(DEVICE_PATHS.zones)).be.belowOrEqual(3);
  });
});
