/** The action runner against the project's HTTPS device simulator, through the real client. */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { groupFromBody, MemoryStateCache, readProfiles, runControlAction } from '../../src/control';
import { DeviceError } from '../../src/errors';
import { assertNoSecret, useHarness } from '../api/helpers';

async function rejection(promise: Promise<unknown>): Promise<DeviceError> {
  try {
    await promise;
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('expected a rejection');
}

describe('control/runner against the simulator', () => {
  const harness = useHarness();

  /** What reached the device after the login, as `METHOD path`. */
  function sent(): string[] {
    return harness.simulator.requests
      .filter((request) => !request.path.includes('/auth/'))
      .map((request) => `${request.method} ${request.path}`);
  }

  function writes(): string[] {
    return sent().filter((request) => !request.startsWith('GET '));
  }

  const AUDIO = DEVICE_PATHS.audio;

  it('mutes the microphone, reading the audio first when nothing is cached and back after', async () => {
    const result = await runControlAction(harness.client(), 'microphoneMute', true, new MemoryStateCache());
    should(sent()).eql([`GET ${AUDIO}`, `PATCH ${AUDIO}`, `GET ${AUDIO}`]);
    should(result.previous?.microphoneMute).be.false();
    should(result.payload.microphoneMute).be.true();
  });

  it('toggles the microphone from what it reads first', async () => {
    harness.simulator.setAudio({ microphoneMute: true });
    const result = await runControlAction(
      harness.client(),
      'microphoneMute',
      'toggle',
      new MemoryStateCache(),
    );
    should(result.payload.microphoneMute).be.false();
  });

  it('toggles from a cached value read within the interval, without reading first', async () => {
    const cache = new MemoryStateCache(() => 1000);
    cache.set('audio', { microphoneMute: false });
    const result = await runControlAction(harness.client(), 'microphoneMute', 'toggle', cache, {
      toggleFreshMs: 2000,
      now: () => 1500,
    });
    should(sent()).eql([`PATCH ${AUDIO}`, `GET ${AUDIO}`]);
    should(result.payload.microphoneMute).be.true();
  });

  it('reads before toggling when the cached value is older than the interval', async () => {
    const cache = new MemoryStateCache(() => 1000);
    // Stale: the device was muted since.
    cache.set('audio', { microphoneMute: false });
    harness.simulator.setAudio({ microphoneMute: true });
    const result = await runControlAction(harness.client(), 'microphoneMute', 'toggle', cache, {
      toggleFreshMs: 2000,
      now: () => 9000,
    });
    should(sent()).eql([`GET ${AUDIO}`, `PATCH ${AUDIO}`, `GET ${AUDIO}`]);
    should(result.payload.microphoneMute).be.false();
  });

  it('sends nothing for a wrong value', async () => {
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { speakerVolume: 3 }, new MemoryStateCache()),
    );
    should(error.code).equal('INVALID_INPUT');
    should(sent()).eql([]);
  });

  it('sends nothing for a field the cached hardware says the firmware lacks', async () => {
    const cache = new MemoryStateCache();
    cache.set('hardware', { firmwareVersion: '1.8.0-0' });
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { dynamicBoostEnabled: true }, cache),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(sent()).eql([]);
  });

  it('steps the volume up by one step of the device', async () => {
    const result = await runControlAction(harness.client(), 'volume', 'up', new MemoryStateCache());
    should(result.payload.speakerVolume).equal((result.previous?.speakerVolume as number) + 1);
  });

  it('writes several audio fields in one PATCH', async () => {
    const result = await runControlAction(
      harness.client(),
      'audio',
      { speakerTrebleLevel: 60, echoReductionLevel: 'High' },
      new MemoryStateCache(),
    );
    should(result.payload).have.properties({ speakerTrebleLevel: 60, echoReductionLevel: 'High' });
    should(writes()).eql([`PATCH ${DEVICE_PATHS.audio}`]);
  });

  it("turns the device's refusal of a field on old firmware into UNSUPPORTED_FIRMWARE", async () => {
    harness.simulator.setFirmwareVersion('1.8.0');
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { dynamicBoostEnabled: true }, new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/dynamicBoostEnabled needs firmware 1\.9/);
  });

  it('names the last version with microphoneGain when the firmware is 2.x', async () => {
    harness.simulator.setFirmwareVersion('2.0.1');
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { microphoneGain: 3 }, new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/microphoneGain exists only up to firmware 1\.999\.999/);
  });

  it('passes an unknown field on and reports the device refusal as INVALID_INPUT', async () => {
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { futureSetting: 1 }, new MemoryStateCache()),
    );
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/futureSetting/);
    should(writes()).eql([`PATCH ${DEVICE_PATHS.audio}`]);
  });

  it('switches the room profile by name and reads profiles and layout back', async () => {
    const cache = new MemoryStateCache();
    const result = await runControlAction(harness.client(), 'profile', 'Workshop', cache);
    const workshop = readProfiles(result.payload).find((profile) => profile.name === 'Workshop');
    should(sent()).eql([
      `GET ${DEVICE_PATHS.profiles}`,
      `POST ${DEVICE_PATHS.profiles}/${workshop?.profileId}/active`,
      `GET ${DEVICE_PATHS.profiles}`,
      `GET ${DEVICE_PATHS.layout}`,
    ]);
    should(readProfiles(result.payload).find((profile) => profile.active)?.name).equal('Workshop');
    should(readProfiles(result.previous).find((profile) => profile.active)?.name).equal('Standard');
    should(cache.get('switching')).not.be.undefined();
  });

  it('refuses an unknown profile, listing the names, without a write', async () => {
    const error = await rejection(
      runControlAction(harness.client(), 'profile', 'Gym', new MemoryStateCache()),
    );
    should(error.code).equal('NOT_FOUND');
    should(error.message).match(/"Standard", "Workshop", "Lecture"/);
    should(writes()).eql([]);
  });

  it('reports profiles on a model 310 as UNSUPPORTED_MODEL', async () => {
    harness.simulator.setModel('310');
    const error = await rejection(
      runControlAction(harness.client(), 'profile', 'Workshop', new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_MODEL');
  });

  it('changes one switching default, sending the complete object', async () => {
    const result = await runControlAction(
      harness.client(),
      'switchingDefaults',
      { zonesTriggerWaitTime: 250 },
      new MemoryStateCache(),
    );
    should(sent()).eql([
      `GET ${DEVICE_PATHS.layout}`,
      `PATCH ${DEVICE_PATHS.layout}`,
      `GET ${DEVICE_PATHS.layout}`,
    ]);
    should(result.payload.cameraSwitcherDefaults).eql({
      defaultCameraInputPort: 'HDMI',
      zonesTriggerWaitTime: 250,
      switchToDefaultWaitTime: 5000,
    });
  });

  it('sets the sound location algorithm on firmware 2.0', async () => {
    harness.simulator.setFirmwareVersion('2.0');
    const result = await runControlAction(
      harness.client(),
      'soundLocationAlgorithm',
      'TDOA',
      new MemoryStateCache(),
    );
    should(result.payload.soundLocationAlgorithm).equal('TDOA');
    should(result.previous?.soundLocationAlgorithm).equal('BP');
  });

  it('refuses the sound location algorithm before firmware 2.0 as UNSUPPORTED_FIRMWARE', async () => {
    const error = await rejection(
      runControlAction(harness.client(), 'soundLocationAlgorithm', 'TDOA', new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
  });

  it('enables the camera switcher (202) and reads it back', async () => {
    const result = await runControlAction(harness.client(), 'cameraSwitcher', true, new MemoryStateCache());
    should(result.payload.enabled).be.true();
  });

  for (const answer of ['empty-body', 'echo'] as const) {
    it(`takes a write answered with ${answer} as done, and reads the state back`, async () => {
      harness.simulator.setWriteAnswer(answer);
      const result = await runControlAction(harness.client(), 'microphoneMute', true, new MemoryStateCache());
      should(result.payload.microphoneMute).be.true();
    });
  }

  it('identifies with {} as payload', async () => {
    const result = await runControlAction(harness.client(), 'identify', undefined, new MemoryStateCache());
    should(result).eql({ action: 'identify', payload: {} });
    should(sent()).eql([`POST ${DEVICE_PATHS.identify}`]);
  });

  it('reports identify on firmware before 1.8 as UNSUPPORTED_FIRMWARE naming the action', async () => {
    harness.simulator.setFirmwareVersion('1.7.0');
    const error = await rejection(
      runControlAction(harness.client(), 'identify', undefined, new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/^identify needs firmware 1\.8/);
  });

  it('reports calibrating with a bar unplugged as DEVICE_BUSY', async () => {
    harness.simulator.setBarUnplugged(true);
    const error = await rejection(
      runControlAction(harness.client(), 'calibrate', undefined, new MemoryStateCache()),
    );
    should(error.code).equal('DEVICE_BUSY');
    should(error.message).match(/Speaker bar disconnected/);
  });

  it('reads the same refusals in the problem-details shape', async () => {
    harness.simulator.setErrorFormat('problem-details');
    harness.simulator.setFirmwareVersion('1.8.0');
    const error = await rejection(
      runControlAction(harness.client(), 'audio', { dynamicBoostEnabled: true }, new MemoryStateCache()),
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
  });

  it('keeps the enrollment code out of the hardware group an admin reads', async () => {
    const admin = harness.client({ account: 'admin', password: 'AD1-M1N-PWD' });
    const hardware = await admin.request('GET', DEVICE_PATHS.hardware);
    const code = (hardware.body as { enrollmentCode?: string }).enrollmentCode;
    should(code).be.a.String().and.not.be.empty();
    assertNoSecret(groupFromBody('hardware', hardware.body), [code as string]);
  });
});
