import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import { GROUP_RESOURCES, STATE_GROUPS } from '../../src/control';
import { checkConfiguredAction } from '../../src/nodes/conference-audio-control/definition';
import { readAudioInterval } from '../../src/nodes/conference-audio-device/definition';
import type { DeviceSimulator } from '../../src/simulator';
import {
  catchModule,
  completeModule,
  counter,
  deviceConfig,
  doneWatchers,
  everythingShown,
  helper,
  nodeModules,
  receiveUntilDone,
  sentToken,
  tab,
  translate,
  until,
  useSimulator,
} from './support';

const PASSWORD = 'c0ntrol-Secret!';
const NODE = 'n-control';

interface DeviceNode {
  connection(): { state: { audioIntervalMs: number; complete: boolean } };
}

describe('device control node (conference-audio-control)', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  /** A control node with `extra` on the settings; the device polls no audio, so only actions read it. */
  async function load(
    extra: Record<string, unknown>,
    device: Record<string, unknown> = { audioInterval: 0 },
  ) {
    const control = {
      id: NODE,
      type: 'conference-audio-control',
      z: 'f1',
      device: 'device',
      wires: [['out']],
    };
    await helper.load(
      nodeModules(completeModule, catchModule),
      [
        tab,
        deviceConfig(sim, device),
        { ...control, ...extra },
        { id: 'out', type: 'helper', z: 'f1' },
        ...doneWatchers(NODE),
      ],
      { device: { password: PASSWORD } },
    );
    out = counter(helper.getNode('out'));
    ok = counter(helper.getNode('ok'));
    failed = counter(helper.getNode('failed'));
  }

  function send(msg: Record<string, unknown> = {}): Promise<void> {
    return receiveUntilDone(NODE, msg, { ok, failed });
  }

  /** The one message the last input sent. */
  function sent(): Record<string, unknown> {
    should(out.count).equal(1);
    return out.messages[0] ?? {};
  }

  /** The error the Catch node got for the last input (and nothing was sent). */
  function caught(): { code: string; message: string } {
    should(out.count).equal(0);
    should(failed.count).equal(1);
    return (failed.messages[0]?.error ?? {}) as { code: string; message: string };
  }

  /** Requests that change the device (the login excluded), as `METHOD path`. */
  function writes(): string[] {
    return sim.requests
      .filter((request) => request.method !== 'GET' && !request.path.includes('/auth/'))
      .map((request) => `${request.method} ${request.path}`);
  }

  const activeProfileName = () => sim.getState().profiles.find((profile) => profile.active)?.name;
  const payloadOf = (msg: Record<string, unknown>) => msg.payload as Record<string, unknown>;
  const previousOf = (msg: Record<string, unknown>) => msg.previous as Record<string, unknown>;
  const fixed = (action: string, value: string, valueType: string) => ({ action, value, valueType });

  describe('actions', () => {
    it('mutes the microphone and sends the audio read back, the audio before and the action', async () => {
      await load(fixed('microphoneMute', 'true', 'bool'));
      await send();
      const msg = sent();
      should(payloadOf(msg).microphoneMute).be.true();
      should(previousOf(msg).microphoneMute).be.false();
      should(msg.action).equal('microphoneMute');
      should(sim.getState().audio).have.property('microphoneMute', true);
    });

    it('keeps the input message’s other properties', async () => {
      await load(fixed('microphoneMute', 'false', 'bool'));
      await send({ _msgid: 'm1', topic: 'room/mute', custom: { keep: true } });
      const msg = sent();
      should(msg._msgid).equal('m1');
      should(msg.topic).equal('room/mute');
      should(msg.custom).eql({ keep: true });
    });

    it('toggles the audience mute from the value it reads', async () => {
      await load(fixed('audienceMute', 'toggle', 'str'));
      await send();
      should(payloadOf(sent()).audienceMute).be.true();
      should(sim.getState().audio).have.property('audienceMute', true);
    });

    it('toggles the microphone back on a second input', async () => {
      await load(fixed('microphoneMute', 'toggle', 'str'));
      await send();
      await send();
      should(out.messages.map((msg) => payloadOf(msg).microphoneMute)).eql([true, false]);
    });

    it('runs a toggle sent at once after a mute on the muted value: one action at a time per device', async () => {
      await load({ action: 'msg' });
      helper.getNode(NODE).receive({ action: 'microphoneMute', payload: true });
      helper.getNode(NODE).receive({ action: 'microphoneMute', payload: 'toggle' });
      await until(() => ok.count + failed.count === 2, 'done for both inputs');
      should(out.messages.map((msg) => payloadOf(msg).microphoneMute)).eql([true, false]);
      should(sim.getState().audio).have.property('microphoneMute', false);
    });

    it('steps the volume up and down by one step of the device', async () => {
      await load({ action: 'msg' });
      await send({ action: 'volume', payload: 'up' });
      const up = out.messages[0] ?? {};
      should(payloadOf(up).speakerVolume).be.above(previousOf(up).speakerVolume as number);
      await send({ action: 'volume', payload: 'down' });
      const down = out.messages[1] ?? {};
      should(payloadOf(down).speakerVolume).equal(previousOf(up).speakerVolume);
      should(writes()).eql([`PUT ${DEVICE_PATHS.volumeChange}`, `PUT ${DEVICE_PATHS.volumeChange}`]);
    });

    it('writes an audio object of several fields in one PATCH', async () => {
      await load(fixed('audio', '{"speakerTrebleLevel": 60, "echoReductionLevel": "High"}', 'json'));
      await send();
      should(payloadOf(sent())).have.properties({ speakerTrebleLevel: 60, echoReductionLevel: 'High' });
      should(writes()).eql([`PATCH ${DEVICE_PATHS.audio}`]);
    });

    it('identifies the device with {} as payload and no previous', async () => {
      await load({ action: 'identify' });
      await send({ previous: 'from upstream' });
      const msg = sent();
      should(msg.payload).eql({});
      should(msg).not.have.property('previous');
      should(msg.action).equal('identify');
      should(writes()).eql([`POST ${DEVICE_PATHS.identify}`]);
    });

    it('starts a calibration with {} as payload', async () => {
      await load({ action: 'calibrate' });
      await send();
      should(sent().payload).eql({});
      should(writes()).eql([`POST ${DEVICE_PATHS.calibrate}`]);
    });

    it('switches the room profile by name', async () => {
      await load(fixed('profile', 'Workshop', 'str'));
      await send();
      const profiles = payloadOf(sent());
      should(JSON.stringify(profiles)).match(/Workshop/);
      should(activeProfileName()).equal('Workshop');
    });

    it('switches the room profile by id', async () => {
      await load({ action: 'msg' });
      const lecture = sim.getState().profiles.find((profile) => profile.name === 'Lecture');
      await send({ action: 'profile', payload: lecture?.profileId });
      should(sent().action).equal('profile');
      should(activeProfileName()).equal('Lecture');
    });

    it('enables the camera switcher and sends it read back', async () => {
      await load(fixed('cameraSwitcher', 'true', 'bool'));
      await send();
      should(payloadOf(sent()).enabled).be.true();
    });

    it('merges one switching default with the values read, sending the complete object', async () => {
      await load(fixed('switchingDefaults', '{"zonesTriggerWaitTime": 250}', 'json'));
      await send();
      const msg = sent();
      should(payloadOf(msg).cameraSwitcherDefaults).eql({
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: 250,
        switchToDefaultWaitTime: 5000,
      });
      should(previousOf(msg).cameraSwitcherDefaults).have.property('zonesTriggerWaitTime').not.equal(250);
    });

    it('sets the sound location algorithm on firmware 2.0', async () => {
      sim.setFirmwareVersion('2.0');
      await load(fixed('soundLocationAlgorithm', 'TDOA', 'str'));
      await send();
      const msg = sent();
      should(payloadOf(msg).soundLocationAlgorithm).equal('TDOA');
      should(previousOf(msg).soundLocationAlgorithm).equal('BP');
    });

    it('takes the action from msg.action and the value from msg.payload when set by msg', async () => {
      await load({ action: 'msg', value: 'ignored', valueType: 'str' });
      await send({ action: 'cameraSwitcher', payload: false });
      const msg = sent();
      should(msg.action).equal('cameraSwitcher');
      should(payloadOf(msg).enabled).be.false();
    });

    it('shows the last action in its status', async () => {
      await load(fixed('microphoneMute', 'true', 'bool'));
      await send();
      const calls = (helper.getNode(NODE).status as unknown as { args: Array<[{ text?: string }]> }).args;
      should(calls.at(-1)?.[0].text).startWith(
        `${translate('conference-audio-control.actions.microphoneMute')} · done`,
      );
    });

    it('calls done once per input', async () => {
      await load({ action: 'msg' });
      await send({ action: 'identify' });
      await send({ action: 'explode' });
      should([ok.count, failed.count]).eql([1, 1]);
    });
  });

  describe('refusals, each reaching a Catch node with msg.error.code', () => {
    const nothingSent: Array<[string, Record<string, unknown>]> = [
      ['a mute value that is not true, false or "toggle"', { action: 'microphoneMute', payload: 'maybe' }],
      ['an unknown action', { action: 'explode', payload: true }],
      ['a write to speakerVolume', { action: 'audio', payload: { speakerVolume: 10 } }],
      ['an audio field out of range', { action: 'audio', payload: { speakerTrebleLevel: 101 } }],
      ['an audio field not in its choices', { action: 'audio', payload: { echoReductionLevel: 'Max' } }],
      ['a volume step that is not up or down', { action: 'volume', payload: 5 }],
      ['an unknown algorithm', { action: 'soundLocationAlgorithm', payload: 'GPS' }],
      [
        'a switching default of the wrong type',
        { action: 'switchingDefaults', payload: { zonesTriggerWaitTime: 'soon' } },
      ],
    ];
    for (const [what, msg] of nothingSent) {
      it(`refuses ${what} as INVALID_INPUT, writing nothing`, async () => {
        await load({ action: 'msg' });
        await send(msg);
        should(caught().code).equal('INVALID_INPUT');
        should(writes()).eql([]);
      });
    }

    it('refuses a configured value that is not JSON as INVALID_INPUT, writing nothing', async () => {
      await load(fixed('audio', '{speakerTrebleLevel', 'json'));
      await send();
      should(caught().code).equal('INVALID_INPUT');
      should(writes()).eql([]);
    });

    it('names the field and what is allowed', async () => {
      await load({ action: 'msg' });
      await send({ action: 'audio', payload: { speakerTrebleLevel: 101 } });
      should(caught().message)
        .match(/speakerTrebleLevel/)
        .and.match(/100/);
    });

    it("passes an unknown field to the device and reports the device's refusal as INVALID_INPUT", async () => {
      await load(fixed('audio', '{"futureSetting": 1}', 'json'));
      await send();
      const error = caught();
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(/futureSetting/);
      should(writes()).eql([`PATCH ${DEVICE_PATHS.audio}`]);
    });

    it('reports a field the firmware is too old for as UNSUPPORTED_FIRMWARE with the version it needs', async () => {
      sim.setFirmwareVersion('1.8.0');
      await load(fixed('audio', '{"dynamicBoostEnabled": true}', 'json'));
      await send();
      const error = caught();
      should(error.code).equal('UNSUPPORTED_FIRMWARE');
      should(error.message).match(/dynamicBoostEnabled needs firmware 1\.9/);
    });

    it('reports microphoneGain on firmware 2.x as UNSUPPORTED_FIRMWARE naming the last version with it', async () => {
      sim.setFirmwareVersion('2.0.1');
      await load(fixed('audio', '{"microphoneGain": 3}', 'json'));
      await send();
      const error = caught();
      should(error.code).equal('UNSUPPORTED_FIRMWARE');
      should(error.message).match(/microphoneGain exists only up to firmware 1\.999\.999/);
    });

    it('reports room profiles on a model 310 as UNSUPPORTED_MODEL', async () => {
      sim.setModel('310');
      await load(fixed('profile', 'Workshop', 'str'));
      await send();
      should(caught().code).equal('UNSUPPORTED_MODEL');
    });

    it('reports an unknown profile as NOT_FOUND, listing the names, writing nothing', async () => {
      await load(fixed('profile', 'Gym', 'str'));
      await send();
      const error = caught();
      should(error.code).equal('NOT_FOUND');
      should(error.message).match(/"Standard", "Workshop", "Lecture"/);
      should(writes()).eql([]);
    });

    it("reports calibrating with a speaker bar unplugged as DEVICE_BUSY with the device's reason", async () => {
      sim.setBarUnplugged(true);
      await load({ action: 'calibrate' });
      await send();
      const error = caught();
      should(error.code).equal('DEVICE_BUSY');
      should(error.message).match(/Speaker bar disconnected/);
    });

    for (const status of [429, 409] as const) {
      it(`reports the device's rate limit answered with ${status} as RATE_LIMITED`, async () => {
        await load(fixed('microphoneMute', 'true', 'bool'));
        await until(() => sim.requests.some((request) => request.path.includes('/auth/')), 'the login');
        sim.setRateLimit(1, status);
        await send();
        should(caught().code).equal('RATE_LIMITED');
      });
    }

    it('shows the fault in its status in the device node’s words', async () => {
      sim.setBarUnplugged(true);
      await load({ action: 'calibrate' });
      await send();
      const calls = (helper.getNode(NODE).status as unknown as { args: Array<[{ text?: string }]> }).args;
      should(calls.at(-1)?.[0].text).equal(
        translate('conference-audio-device.status.failed', { code: 'DEVICE_BUSY' }),
      );
    });

    it('never puts the password or the token into a message, a log line, a status or an error', async () => {
      await load({ action: 'msg' });
      await send({ action: 'microphoneMute', payload: true });
      await send({ action: 'audio', payload: { futureSetting: 1 } });
      const token = sentToken(sim);
      should(token.length).be.above(8);
      const everything = everythingShown(NODE, out.messages, failed.messages);
      should(everything).not.containEql(token);
      should(everything).not.containEql(PASSWORD);
    });
  });

  describe('what it keeps read between inputs', () => {
    const state = () => (helper.getNode('device') as unknown as DeviceNode).connection().state;
    /** The state resources read once every group the node keeps is read. */
    async function resourcesRead(): Promise<string[]> {
      await until(() => state().complete, 'the state the node keeps');
      const byPath = sim.stats().requestsByPath;
      return STATE_GROUPS.filter((group) => (byPath[GROUP_RESOURCES[group]] ?? 0) > 0);
    }

    it('keeps the group its action changes and the hardware, and reads no other', async () => {
      await load(fixed('cameraSwitcher', 'true', 'bool'));
      should(await resourcesRead()).eql(['hardware', 'cameraSwitcher']);
    });

    it('keeps the profiles and the layout a profile switch reads back', async () => {
      await load(fixed('profile', 'Lecture', 'str'));
      should(await resourcesRead()).eql(['hardware', 'switching', 'profiles']);
    });

    it('keeps every group when the action is set by msg', async () => {
      await load({ action: 'msg' });
      should(await resourcesRead()).eql([...STATE_GROUPS]);
    });
  });

  describe("the config node's audio interval", () => {
    const intervalMs = () =>
      (helper.getNode('device') as unknown as DeviceNode).connection().state.audioIntervalMs;

    it('is 2 s for a config node saved without it', async () => {
      await load({ action: 'identify' }, {});
      should(intervalMs()).equal(2000);
    });

    it('takes 0: the audio settings are never polled', async () => {
      await load({ action: 'identify' }, { audioInterval: 0 });
      should(intervalMs()).equal(0);
    });

    it('refuses more than 60 s as INVALID_CONFIG', async () => {
      await load({ action: 'identify' }, { audioInterval: 61 });
      await send();
      should(caught().code).equal('INVALID_CONFIG');
    });
  });
});

describe('device control definition: the dialog refuses what an input would', () => {
  it('takes a configured value that fits its action', () => {
    should(checkConfiguredAction('volume', 'up', 'str')).be.undefined();
    should(checkConfiguredAction('microphoneMute', 'toggle', 'str')).be.undefined();
    should(checkConfiguredAction('audio', '{"speakerTrebleLevel": 60}', 'json')).be.undefined();
  });

  it('names what the action takes for a value that does not fit', () => {
    should(checkConfiguredAction('volume', 'sideways', 'str')).match(/"up" or "down"/);
    should(checkConfiguredAction('audio', '{"speakerVolume": 3}', 'json')).match(/speakerVolume/);
  });

  it('refuses a JSON value that does not parse and an unknown action', () => {
    should(checkConfiguredAction('audio', '{speaker', 'json')).match(/JSON/);
    should(checkConfiguredAction('explode', '', 'str')).match(/msg/);
  });

  it('checks no value for the actions without one and for "set by msg"', () => {
    should(checkConfiguredAction('identify', 'anything', 'str')).be.undefined();
    should(checkConfiguredAction('msg', '{', 'json')).be.undefined();
  });
});

describe('device definition: the audio interval', () => {
  it('is 2 s when absent or blank, as in a flow saved before the setting', () => {
    should(readAudioInterval(undefined)).eql({ ok: true, value: 2 });
    should(readAudioInterval('')).eql({ ok: true, value: 2 });
  });

  it('takes 0 to 60 seconds', () => {
    should(readAudioInterval(0)).eql({ ok: true, value: 0 });
    should(readAudioInterval('60')).eql({ ok: true, value: 60 });
  });

  it('refuses more than 60, less than 0 and what is not a decimal number', () => {
    for (const value of [61, '-1', '0x10', 'soon']) should(readAudioInterval(value).ok).be.false();
  });
});
