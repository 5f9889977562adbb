/**
 * The order of requests each action makes, and what it sends. The simulator's control endpoints are not
 * there yet, so a requester that answers from a table stands in for the device here; the integration
 * tests against the simulator follow when it serves /api/v1/audio and the rest.
 */
import should from 'should';
import { deviceMessageFrom } from '../../src/api';
import { errorFromStatus } from '../../src/api/errors';
import type { DeviceRequester, DeviceResponse, HttpMethod } from '../../src/api/types';
import { MemoryStateCache, runControlAction } from '../../src/control';
import { DeviceError } from '../../src/errors';

interface Call {
  method: HttpMethod;
  path: string;
  body?: unknown;
}

/** Answers GETs from `resources` and writes with `{}`, or with the refusal `refusals` holds for the path. */
class TableDevice implements DeviceRequester {
  readonly calls: Call[] = [];
  constructor(
    readonly resources: Record<string, unknown>,
    readonly refusals: Record<string, { statusCode: number; body: unknown }> = {},
  ) {}

  async request<T>(method: HttpMethod, path: string, body?: unknown): Promise<DeviceResponse<T>> {
    this.calls.push(body === undefined ? { method, path } : { method, path, body });
    const refusal = this.refusals[path];
    if (refusal !== undefined) {
      throw errorFromStatus(method, path, refusal.statusCode, deviceMessageFrom(refusal.body), 'general');
    }
    if (method === 'GET' && !(path in this.resources))
      throw new DeviceError('NOT_FOUND', path, { statusCode: 404 });
    return { statusCode: 200, body: (method === 'GET' ? this.resources[path] : {}) as T, headers: {} };
  }

  get writes(): Call[] {
    return this.calls.filter((call) => call.method !== 'GET');
  }
}

const audio = { microphoneMute: false, speakerVolume: 14, speakerTrebleLevel: 90 };
const layout = {
  zones: [],
  cameraSwitcherZoneInputMap: [],
  cameraSwitcherDefaults: {
    defaultCameraInputPort: 'HDMI',
    zonesTriggerWaitTime: 1000,
    switchToDefaultWaitTime: 5000,
  },
};
const profiles = {
  profiles: [
    { profileId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', name: 'Default', active: true },
    { profileId: '6fa459ea-ee8a-3ca4-894e-db77e160355e', name: 'Workshop', active: false },
  ],
};

function device(refusals?: ConstructorParameters<typeof TableDevice>[1]): TableDevice {
  return new TableDevice(
    {
      '/api/v1/audio': audio,
      '/api/v1/room/layout': layout,
      '/api/v1/room/profiles': profiles,
      '/api/v1/integrations/camera-switcher': { enabled: false },
    },
    refusals,
  );
}

async function rejection(promise: Promise<unknown>): Promise<DeviceError> {
  try {
    await promise;
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('expected a rejection');
}

describe('control/runner: write, then read back', () => {
  it('mutes with one PATCH and reads the audio back, previous read first when nothing is cached', async () => {
    const target = device();
    const result = await runControlAction(target, 'microphoneMute', true, new MemoryStateCache());
    should(target.calls).eql([
      { method: 'GET', path: '/api/v1/audio' },
      { method: 'PATCH', path: '/api/v1/audio', body: { microphoneMute: true } },
      { method: 'GET', path: '/api/v1/audio' },
    ]);
    should(result).eql({ action: 'microphoneMute', payload: audio, previous: audio });
  });

  it('toggles from a fresh cached value without reading first', async () => {
    const target = device();
    const cache = new MemoryStateCache(() => 1000);
    cache.set('audio', { ...audio, microphoneMute: true });
    await runControlAction(target, 'microphoneMute', 'toggle', cache, {
      toggleFreshMs: 2000,
      now: () => 1500,
    });
    should(target.calls.map((call) => call.method)).eql(['PATCH', 'GET']);
    should(target.writes[0]?.body).eql({ microphoneMute: false });
  });

  it('reads before toggling when the cached value is older than the interval', async () => {
    const target = device();
    const cache = new MemoryStateCache(() => 1000);
    cache.set('audio', { ...audio, microphoneMute: false });
    await runControlAction(target, 'microphoneMute', 'toggle', cache, {
      toggleFreshMs: 2000,
      now: () => 9000,
    });
    should(target.calls.map((call) => call.method)).eql(['GET', 'PATCH', 'GET']);
    should(target.writes[0]?.body).eql({ microphoneMute: true });
  });

  it('steps the volume with PUT increment', async () => {
    const target = device();
    await runControlAction(target, 'volume', 'up', new MemoryStateCache());
    should(target.writes).eql([
      { method: 'PUT', path: '/api/v1/audio/volume/change', body: { operation: 'increment' } },
    ]);
  });

  it('sends nothing for a wrong value', async () => {
    const target = device();
    const error = await rejection(
      runControlAction(target, 'audio', { speakerVolume: 3 }, new MemoryStateCache()),
    );
    should(error.code).equal('INVALID_INPUT');
    should(target.calls).eql([]);
  });

  it('sends nothing for a field the cached firmware lacks', async () => {
    const target = device();
    const cache = new MemoryStateCache();
    cache.set('hardware', { firmwareVersion: '1.8.0-0' });
    const error = await rejection(runControlAction(target, 'audio', { dynamicBoostEnabled: true }, cache));
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(target.calls).eql([]);
  });

  it('activates a profile by name through the list, then reads profiles and layout back', async () => {
    const target = device();
    const cache = new MemoryStateCache();
    const result = await runControlAction(target, 'profile', 'Workshop', cache);
    should(target.calls.map((call) => `${call.method} ${call.path}`)).eql([
      'GET /api/v1/room/profiles',
      'POST /api/v1/room/profiles/6fa459ea-ee8a-3ca4-894e-db77e160355e/active',
      'GET /api/v1/room/profiles',
      'GET /api/v1/room/layout',
    ]);
    should(result.payload).eql(profiles);
    should(cache.get('switching')?.value.cameraSwitcherDefaults).eql(layout.cameraSwitcherDefaults);
  });

  it('refuses an unknown profile with the names that exist, sending no write', async () => {
    const target = device();
    const error = await rejection(runControlAction(target, 'profile', 'Lecture', new MemoryStateCache()));
    should(error.code).equal('NOT_FOUND');
    should(error.message).match(/"Default", "Workshop"/);
    should(target.writes).eql([]);
  });

  it('merges switching defaults with the layout read first', async () => {
    const target = device();
    const result = await runControlAction(
      target,
      'switchingDefaults',
      { zonesTriggerWaitTime: 250 },
      new MemoryStateCache(),
    );
    should(target.calls.map((call) => `${call.method} ${call.path}`)).eql([
      'GET /api/v1/room/layout',
      'PATCH /api/v1/room/layout',
      'GET /api/v1/room/layout',
    ]);
    should(target.writes[0]?.body).eql({
      cameraSwitcherDefaults: {
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: 250,
        switchToDefaultWaitTime: 5000,
      },
    });
    should(result.previous).eql({
      cameraSwitcherZoneInputMap: [],
      cameraSwitcherDefaults: layout.cameraSwitcherDefaults,
    });
  });

  it('enables the camera switcher and reads it back', async () => {
    const target = device();
    await runControlAction(target, 'cameraSwitcher', true, new MemoryStateCache());
    should(target.writes).eql([
      { method: 'PATCH', path: '/api/v1/integrations/camera-switcher', body: { enabled: true } },
    ]);
  });

  it('identifies with a body-less POST and answers {} without previous', async () => {
    const target = device();
    const result = await runControlAction(target, 'identify', undefined, new MemoryStateCache());
    should(target.calls).eql([{ method: 'POST', path: '/api/v1/audio/identify' }]);
    should(result).eql({ action: 'identify', payload: {} });
  });

  it('reports calibrating with a bar unplugged as DEVICE_BUSY', async () => {
    const target = device({
      '/api/v1/audio/calibrate': {
        statusCode: 409,
        body: { errors: [{ message: 'Speaker bar disconnected' }] },
      },
    });
    const error = await rejection(runControlAction(target, 'calibrate', undefined, new MemoryStateCache()));
    should(error.code).equal('DEVICE_BUSY');
    should(error.message).match(/Speaker bar disconnected/);
  });
});
