import should from 'should';
import { deviceSettingsFromProperties } from '../../src/api/settings';
import { DeviceError } from '../../src/errors';
import { readPoint } from '../../src/nodes/conference-audio-zone-lookup/point';
import { arrayParts, ZoneChangeTracker } from '../../src/nodes/conference-audio-zones/zone-messages';
import { clockTime, connectionStatus } from '../../src/nodes/status/status';
import type { Zone } from '../../src/zones/types';

function zone(id: string, x1: number, y1: number, x2: number, y2: number, label = id): Zone {
  return {
    id,
    label,
    types: ['Switching'],
    geometry: { point1: { x: x1, y: y1 }, point2: { x: x2, y: y2 } },
  };
}

function expectInvalidConfig(fn: () => unknown, pattern: RegExp) {
  try {
    fn();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    should((error as DeviceError).code).equal('INVALID_CONFIG');
    should((error as DeviceError).message).match(pattern);
    return;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('nodes/lib', () => {
  describe('readPoint', () => {
    it('reads {x, y}', () => {
      should(readPoint({ x: 1, y: -2, z: 5 })).eql({ ok: true, point: { x: 1, y: -2 } });
    });

    it('reads the coordinates of a sound location event', () => {
      should(readPoint({ coordinates: { x: 1200, y: 3500 }, azimuth: 12 })).eql({
        ok: true,
        point: { x: 1200, y: 3500 },
      });
    });

    for (const [name, value] of [
      ['a string', 'x=1,y=2'],
      ['null', null],
      ['a missing y', { x: 1 }],
      ['a numeric string', { x: '1', y: 2 }],
      ['NaN', { x: Number.NaN, y: 2 }],
      ['Infinity', { x: Number.POSITIVE_INFINITY, y: 2 }],
      ['bad coordinates', { coordinates: { x: 1 } }],
      ['an array', [1, 2]],
    ] as const) {
      it(`refuses ${name} with a reason`, () => {
        const reading = readPoint(value);
        should(reading.ok).be.false();
        if (!reading.ok) should(reading.reason).match(/finite numbers|expected \{x, y\}/);
      });
    }
  });

  describe('deviceSettingsFromProperties', () => {
    it('fills in the defaults: port 443, general, node-red, Vendor, pin (trust on first use), 10 s, audio every 2 s', () => {
      should(deviceSettingsFromProperties({ host: ' 192.168.1.50 ' })).eql({
        host: '192.168.1.50',
        port: 443,
        baseUrl: 'https://192.168.1.50',
        account: 'general',
        clientId: 'node-red',
        vendor: 'Vendor',
        tls: { mode: 'pin' },
        timeoutMs: 10_000,
        audioIntervalMs: 2000,
      });
    });

    it('reads numbers stored as strings and normalises the fingerprint', () => {
      const settings = deviceSettingsFromProperties({
        host: 'fe80::1',
        port: '8443',
        timeout: '2.5',
        tls: 'pin',
        fingerprint: 'ab'.repeat(32),
      });
      should(settings.port).equal(8443);
      should(settings.timeoutMs).equal(2500);
      should(settings.tls).eql({ mode: 'pin', fingerprint: Array(32).fill('AB').join(':') });
    });

    it('refuses an empty host', () =>
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: ' ' }), /Host is empty/));
    it('refuses a host with a scheme', () =>
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'https://device' }), /./));
    it('refuses port 0 and 65536', () => {
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'a', port: 0 }), /1 to 65535/);
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'a', port: 65536 }), /1 to 65535/);
    });
    it('refuses a timeout of 0', () =>
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'a', timeout: 0 }), /more than 0/));
    it('refuses an account other than general or admin', () =>
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'a', account: 'Admin' }), /general/));
    it('refuses a short fingerprint', () =>
      expectInvalidConfig(
        () => deviceSettingsFromProperties({ host: 'a', tls: 'pin', fingerprint: 'AB:CD' }),
        /64 hex/,
      ));
    it('refuses CA mode without a PEM', () =>
      expectInvalidConfig(() => deviceSettingsFromProperties({ host: 'a', tls: 'ca', ca: 'nope' }), /PEM/));
  });

  describe('connectionStatus', () => {
    it('maps each state to colour, shape and key', () => {
      should(connectionStatus('connecting')).eql({ fill: 'yellow', shape: 'ring', key: 'status.connecting' });
      should(connectionStatus('connected')).eql({ fill: 'green', shape: 'dot', key: 'status.connected' });
      should(connectionStatus('auth_failed')).eql({ fill: 'red', shape: 'ring', key: 'status.authFailed' });
      should(connectionStatus('rate_limited').key).equal('status.rateLimited');
      should(connectionStatus('unreachable', 'UNREACHABLE').key).equal('status.unreachable');
      should(connectionStatus('unreachable', 'TIMEOUT').key).equal('status.timeout');
      should(connectionStatus('unreachable', 'TLS').key).equal('status.tls');
    });

    it('formats the clock time with two digits each', () => {
      should(clockTime(new Date(2024, 0, 1, 4, 5, 6))).equal('04:05:06');
    });
  });

  describe('ZoneChangeTracker', () => {
    it('reports every zone as added on the first read', () => {
      const changes = new ZoneChangeTracker().update([zone('a', 0, 0, 10, 10)]);
      should(changes?.added.map((z) => z.id)).eql(['a']);
      should(changes?.zones[0]).have.property('width', 10);
    });

    it('reports nothing when the zones did not change', () => {
      const tracker = new ZoneChangeTracker();
      tracker.update([zone('a', 0, 0, 10, 10)]);
      should(tracker.update([zone('a', 0, 0, 10, 10)])).be.undefined();
    });

    it('reports added, removed and changed zones with geometry', () => {
      const tracker = new ZoneChangeTracker();
      tracker.update([zone('a', 0, 0, 10, 10), zone('b', 20, 0, 30, 10)]);
      const changes = tracker.update([zone('a', 0, 0, 20, 10), zone('c', 40, 0, 50, 10)]);
      should(changes?.added.map((z) => z.id)).eql(['c']);
      should(changes?.removed.map((z) => z.id)).eql(['b']);
      should(changes?.changed.map((c) => [c.id, c.before.width, c.after.width])).eql([['a', 10, 20]]);
    });
  });

  describe('arrayParts', () => {
    it('nests an incoming sequence as the split node does', () => {
      should(arrayParts('g', 1, 3, { id: 'outer' })).eql({
        id: 'g',
        index: 1,
        count: 3,
        type: 'array',
        parts: { id: 'outer' },
      });
    });
  });
});
