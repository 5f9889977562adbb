import should from 'should';
import { MAX_DELAY_MS } from '../../src/api/settings-rules';
import type { DeviceSimulator } from '../../src/simulator';
import { type counter, loadWatched, receiveUntilDone, useSimulator } from './support';

const PASSWORD = 'unsafe-Input-1!';
const NODE = 'n-control';

/** A flow's JSON with `key` as an own property, as a JSON node or a typed JSON value makes it. */
const withKey = (key: string, before: string) => JSON.parse(`{${before}, "${key}": {"polluted": true}}`);

describe('device control node: nothing unsafe reaches the device', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  async function load(control: Record<string, unknown>): Promise<void> {
    ({ out, ok, failed } = await loadWatched(sim, PASSWORD, {
      id: NODE,
      type: 'conference-audio-control',
      ...control,
    }));
  }

  /** Every request the device received, the login excluded: none should be a write. */
  const writes = () =>
    sim.requests.filter((request) => request.method !== 'GET' && !request.path.includes('/auth/'));

  async function refused(msg: Record<string, unknown>): Promise<string> {
    await receiveUntilDone(NODE, msg, { ok, failed });
    should(out.count).equal(0);
    should(failed.count).equal(1);
    const error = failed.messages[0]?.error as { code: string; message: string };
    should(error.code).equal('INVALID_INPUT');
    should(writes()).eql([]);
    return error.message;
  }

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    it(`refuses an audio object with the key ${key}, sending nothing`, async () => {
      await load({ action: 'msg' });
      const message = await refused({ action: 'audio', payload: withKey(key, '"speakerBassLevel": 50') });
      should(message).match(new RegExp(`"${key}"`));
    });

    it(`refuses switching defaults with the key ${key}, sending nothing`, async () => {
      await load({ action: 'msg' });
      await refused({ action: 'switchingDefaults', payload: withKey(key, '"zonesTriggerWaitTime": 250') });
    });
  }

  it('refuses a configured JSON audio value with a nested __proto__, sending nothing', async () => {
    await load({ action: 'audio', value: '{"futureSetting": {"__proto__": {"x": 1}}}', valueType: 'json' });
    await refused({});
  });

  it('refuses an audio write over 64 KiB, sending nothing', async () => {
    await load({ action: 'msg' });
    await refused({ action: 'audio', payload: { futureSetting: 'x'.repeat(70_000) } });
  });

  it('refuses a switching wait time of 1e300, as the active zone node would, sending nothing', async () => {
    await load({ action: 'msg' });
    const message = await refused({ action: 'switchingDefaults', payload: { zonesTriggerWaitTime: 1e300 } });
    should(message).match(new RegExp(String(MAX_DELAY_MS)));
  });

  it('names NaN in its message, sending nothing', async () => {
    await load({ action: 'msg' });
    const message = await refused({ action: 'audio', payload: { speakerTrebleLevel: Number.NaN } });
    should(message).match(/got NaN/);
  });
});
