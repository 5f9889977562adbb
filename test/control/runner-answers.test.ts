/**
 * The action runner against what a device answers: a read-back of the wrong shape, a write it accepts but
 * does not show, profiles picked by name or id, and a resource it refused before.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { MemoryStateCache, runControlAction } from '../../src/control';
import { DeviceError } from '../../src/errors';
import { useHarness } from '../api/helpers';

async function rejection(promise: Promise<unknown>): Promise<DeviceError> {
  try {
    await promise;
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('expected a rejection');
}

const AUDIO = DEVICE_PATHS.audio;
const PROFILES = DEVICE_PATHS.profiles;

describe('control/runner: what the device answers', () => {
  const harness = useHarness();

  /** What reached the device after the login, as `METHOD path`. */
  function sent(): string[] {
    return harness.simulator.requests
      .filter((request) => !request.path.includes('/auth/'))
      .map((request) => `${request.method} ${request.path}`);
  }

  /** A cache that holds the audio as the simulator starts, so that a write is the first request. */
  async function cacheWithAudio(): Promise<MemoryStateCache> {
    const cache = new MemoryStateCache();
    await runControlAction(harness.client(), 'microphoneMute', false, cache);
    harness.simulator.resetRecords();
    return cache;
  }

  describe('a read-back of the wrong shape', () => {
    it('is BAD_RESPONSE, and the cache keeps the audio it had', async () => {
      const cache = await cacheWithAudio();
      const before = cache.get('audio');
      harness.simulator.setFault({ kind: 'wrong-shape', body: [1, 2, 3], path: AUDIO });
      const error = await rejection(runControlAction(harness.client(), 'volume', 'up', cache));
      should(error.code).equal('BAD_RESPONSE');
      should(error.message).match(/GET \/api\/v1\/audio is not a valid audio reading: it is an array/);
      should(cache.get('audio')).equal(before);
    });

    it('is BAD_RESPONSE for a field of the wrong type, before anything is written', async () => {
      harness.simulator.setFault({
        kind: 'wrong-shape',
        body: { microphoneMute: false, speakerVolume: '14' },
        path: AUDIO,
      });
      const error = await rejection(
        runControlAction(harness.client(), 'microphoneMute', true, new MemoryStateCache()),
      );
      should(error.code).equal('BAD_RESPONSE');
      should(error.message).match(/speakerVolume is a string, not a number/);
      should(sent()).eql([`GET ${AUDIO}`]);
    });
  });

  describe('whether the read-back shows the write', () => {
    it('says applied: true when it does', async () => {
      const result = await runControlAction(harness.client(), 'microphoneMute', true, new MemoryStateCache());
      should(result.applied).be.true();
    });

    it('says applied: false for a mute the device accepts and reads back unmuted', async () => {
      const cache = await cacheWithAudio();
      // The fault answers the PATCH (200, as accepted) and the GET after it, which shows no mute.
      harness.simulator.setFault({
        kind: 'wrong-shape',
        body: { microphoneMute: false },
        path: AUDIO,
        times: 2,
      });
      const result = await runControlAction(harness.client(), 'microphoneMute', true, cache);
      should(sent()).eql([`PATCH ${AUDIO}`, `GET ${AUDIO}`]);
      should(result.payload).eql({ microphoneMute: false });
      should(result.applied).be.false();
    });

    it('says applied: false for an audio field the read-back lacks', async () => {
      const cache = await cacheWithAudio();
      harness.simulator.setFault({
        kind: 'wrong-shape',
        body: { microphoneMute: false },
        path: AUDIO,
        times: 2,
      });
      const result = await runControlAction(harness.client(), 'audio', { speakerTrebleLevel: 60 }, cache);
      should(result.applied).be.false();
    });

    it('checks a switching default in the complete object read back', async () => {
      const result = await runControlAction(
        harness.client(),
        'switchingDefaults',
        { zonesTriggerWaitTime: 1500 },
        new MemoryStateCache(),
      );
      should(result.applied).be.true();
    });

    it('leaves applied out for a volume step, which at either end changes nothing', async () => {
      const result = await runControlAction(harness.client(), 'volume', 'up', new MemoryStateCache());
      should(result).not.have.property('applied');
    });
  });

  describe('a profile by name or by id', () => {
    const standard = { profileId: 'p-1', name: 'Standard' };
    /** A profile named like the other's id. */
    const confusing = { profileId: 'p-2', name: 'p-1' };

    it('takes a bare word as a name first, and says so', async () => {
      harness.simulator.setProfiles([standard, confusing]);
      const result = await runControlAction(harness.client(), 'profile', 'p-1', new MemoryStateCache());
      should(result.profile).eql({ id: 'p-2', name: 'p-1', matchedBy: 'name' });
      should(result.applied).be.true();
      should(harness.simulator.getState().profiles.find((profile) => profile.active)?.profileId).equal('p-2');
    });

    it('takes a bare word as an id when no profile has that name, and says so', async () => {
      harness.simulator.setProfiles([standard, confusing], 'p-2');
      const result = await runControlAction(harness.client(), 'profile', 'p-2', new MemoryStateCache());
      should(result.profile).eql({ id: 'p-2', name: 'p-1', matchedBy: 'id' });
    });

    it('picks {id} by the id only and {name} by the name only', async () => {
      harness.simulator.setProfiles([standard, confusing], 'p-2');
      const byId = await runControlAction(harness.client(), 'profile', { id: 'p-1' }, new MemoryStateCache());
      should(byId.profile).eql({ id: 'p-1', name: 'Standard', matchedBy: 'id' });
      const error = await rejection(
        runControlAction(harness.client(), 'profile', { name: 'p-2' }, new MemoryStateCache()),
      );
      should(error.code).equal('NOT_FOUND');
      should(error.message).match(/no room profile with name "p-2"/);
    });

    it('refuses a name two profiles share as INVALID_INPUT naming both ids, writing nothing', async () => {
      const shared = {
        profiles: [
          { profileId: 'p-1', name: 'dup', active: true },
          { profileId: 'p-2', name: 'dup', active: false },
        ],
      };
      harness.simulator.setFault({ kind: 'wrong-shape', body: shared, path: PROFILES });
      const error = await rejection(
        runControlAction(harness.client(), 'profile', 'dup', new MemoryStateCache()),
      );
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(/2 room profiles are named "dup" \(ids "p-1", "p-2"\)/);
      should(sent()).eql([`GET ${PROFILES}`]);
    });
  });

  describe('a resource the device refused before', () => {
    it('fails a profile action on a model 310 at once, with the same code, without asking again', async () => {
      harness.simulator.setModel('310');
      const cache = new MemoryStateCache();
      const first = await rejection(runControlAction(harness.client(), 'profile', 'Workshop', cache));
      harness.simulator.resetRecords();
      const again = await rejection(runControlAction(harness.client(), 'profile', 'Workshop', cache));
      should(first.code).equal('UNSUPPORTED_MODEL');
      should(again.code).equal('UNSUPPORTED_MODEL');
      should(again.message).match(/not asked again until a redeploy/);
      should(sent()).eql([]);
    });
  });
});
