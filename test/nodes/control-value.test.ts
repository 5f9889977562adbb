/**
 * The device control node's value is a TypedInput read as Node-RED's core nodes read theirs
 * (RED.util.evaluateNodeProperty): a literal of the type the action takes, the action's own words as types
 * of their own, or a value read for each input from the message, the flow or global context, or the
 * environment. Against the simulator, in a real Node-RED.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import {
  checkConfiguredAction,
  LITERAL_TYPES,
  literalValue,
  VALUE_FIELDS,
  WORD_TYPES,
} from '../../src/nodes/conference-audio-control/definition';
import type { DeviceSimulator } from '../../src/simulator';
import { type counter, helper, loadWatched, nodeApi, receiveUntilDone, useSimulator } from './support';

const PASSWORD = 'v4lue-Secret!';
const NODE = 'n-control';
const ENV = [{ name: 'ROOM_PROFILE', value: 'Workshop', type: 'str' }];

describe('device control node: the value as a TypedInput', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  /** A control node running `action` with `value` of TypedInput type `valueType`, on a tab with ENV. */
  async function load(action: string, value: string, valueType: string) {
    ({ out, ok, failed } = await loadWatched(
      sim,
      PASSWORD,
      { id: NODE, type: 'conference-audio-control', action, value, valueType },
      { id: 'f1', type: 'tab', label: 'test', env: ENV },
    ));
  }

  function send(msg: Record<string, unknown> = {}): Promise<void> {
    return receiveUntilDone(NODE, msg, { ok, failed });
  }

  /** The payload of the one message sent for each input so far. */
  const payloads = () => out.messages.map((msg) => msg.payload as Record<string, unknown>);

  function context(scope: 'flow' | 'global'): { set(key: string, value: unknown): void } {
    const node = helper.getNode(NODE) as unknown as {
      context(): Record<'flow' | 'global', { set(key: string, value: unknown): void }>;
    };
    return node.context()[scope];
  }

  function writes(): string[] {
    return sim.requests
      .filter((request) => request.method !== 'GET' && !request.path.includes('/auth/'))
      .map((request) => `${request.method} ${request.path}`);
  }

  /** The code of the error the Catch node got for the first refused input. */
  const caughtCode = () => (failed.messages[0]?.error as { code?: string } | undefined)?.code;

  const activeProfileName = () => sim.getState().profiles.find((profile) => profile.active)?.name;

  it('msg: reads the value from the message property it names, for each input', async () => {
    await load('microphoneMute', 'payload.mute', 'msg');
    await send({ payload: { mute: true } });
    await send({ payload: { mute: false } });
    should(payloads().map((audio) => audio.microphoneMute)).eql([true, false]);
  });

  it('flow: reads the flow context entry as it is at each input', async () => {
    await load('cameraSwitcher', 'switcher', 'flow');
    context('flow').set('switcher', true);
    await send();
    context('flow').set('switcher', false);
    await send();
    should(payloads().map((switcher) => switcher.enabled)).eql([true, false]);
  });

  it('global: reads the global context entry', async () => {
    sim.setFirmwareVersion('2.0');
    await load('soundLocationAlgorithm', 'algorithm', 'global');
    context('global').set('algorithm', 'TDOA');
    await send();
    should(payloads()[0]?.soundLocationAlgorithm).equal('TDOA');
  });

  it("env: reads the environment variable, the tab's own first", async () => {
    await load('profile', 'ROOM_PROFILE', 'env');
    await send();
    should(activeProfileName()).equal('Workshop');
  });

  it('json: writes the object typed in', async () => {
    await load('switchingDefaults', '{"switchToDefaultWaitTime": 7000}', 'json');
    await send();
    should(payloads()[0]?.cameraSwitcherDefaults).have.property('switchToDefaultWaitTime', 7000);
  });

  it('num: switches to the room profile with that number as its id', async () => {
    sim.setProfiles([
      { profileId: '1', name: 'Standard' },
      { profileId: '7', name: 'Seven' },
    ]);
    await load('profile', '7', 'num');
    await send();
    should(activeProfileName()).equal('Seven');
  });

  it('bool: disables the camera switcher with false', async () => {
    sim.setCameraSwitcher({ enabled: true });
    await load('cameraSwitcher', 'false', 'bool');
    await send();
    should(payloads()[0]?.enabled).be.false();
  });

  it('toggle: a type of its own, without a value, flips the mute it reads', async () => {
    await load('audienceMute', '', 'toggle');
    await send();
    await send();
    should(payloads().map((audio) => audio.audienceMute)).eql([true, false]);
  });

  for (const [direction, moves] of [
    ['up', 'above'],
    ['down', 'below'],
  ] as const) {
    it(`${direction}: a type of its own, without a value, one step of the volume ${direction}`, async () => {
      sim.setAudio({ speakerVolume: 10 });
      await load('volume', '', direction);
      await send();
      const msg = out.messages[0] ?? {};
      const volume = (of: unknown) => (of as { speakerVolume: number }).speakerVolume;
      should(volume(msg.payload)).be[moves](volume(msg.previous));
      should(writes()).eql([`PUT ${DEVICE_PATHS.volumeChange}`]);
    });
  }

  it('BP and TDOA: types of their own, each the algorithm it names', async () => {
    sim.setFirmwareVersion('2.0');
    await load('soundLocationAlgorithm', '', 'TDOA');
    await send();
    should(payloads()[0]?.soundLocationAlgorithm).equal('TDOA');
  });

  it('refuses a value read from the message that does not fit the action as INVALID_INPUT, writing nothing', async () => {
    await load('volume', 'payload', 'msg');
    await send({ payload: 'sideways' });
    should(out.count).equal(0);
    should(caughtCode()).equal('INVALID_INPUT');
    should(writes()).eql([]);
  });

  it('refuses a message property expression that cannot be read as INVALID_INPUT', async () => {
    await load('microphoneMute', 'payload[', 'msg');
    await send({ payload: true });
    should(out.count).equal(0);
    should(caughtCode()).equal('INVALID_INPUT');
  });

  it('serves the next input after a refused one', async () => {
    await load('microphoneMute', 'payload', 'msg');
    await send({ payload: 'maybe' });
    await send({ payload: true });
    should([ok.count, failed.count]).eql([1, 1]);
    should(payloads()[0]?.microphoneMute).be.true();
  });
});

describe('device control definition: the value types', () => {
  it('offers each action with a value its words or literals first, then msg, flow, global and env', () => {
    should(VALUE_FIELDS.microphoneMute?.types).eql(['bool', 'toggle', 'msg', 'flow', 'global', 'env']);
    should(VALUE_FIELDS.volume?.types).eql(['up', 'down', 'msg', 'flow', 'global', 'env']);
    should(VALUE_FIELDS.soundLocationAlgorithm?.types).eql(['BP', 'TDOA', 'msg', 'flow', 'global', 'env']);
    should(VALUE_FIELDS.profile?.types).eql(['str', 'num', 'msg', 'flow', 'global', 'env']);
  });

  it("reads a literal in the dialog as Node-RED's evaluateNodeProperty reads it at runtime", () => {
    const evaluate = nodeApi().util.evaluateNodeProperty;
    const samples = [
      'true',
      'TRUE',
      'false',
      'yes',
      '',
      '7',
      ' 7 ',
      '1e3',
      'x',
      '{"a": [1, 2]}',
      '"text"',
      '3',
    ];
    for (const type of LITERAL_TYPES) {
      for (const text of samples) {
        let expected: unknown;
        try {
          expected = evaluate(text, type, {} as never, {});
        } catch {
          expected = 'refused';
        }
        const read = literalValue(text, type);
        should(read.ok ? read.value : 'refused').eql(expected, `${type} ${JSON.stringify(text)}`);
      }
    }
  });

  it('takes a word type as its word, for its own action only', () => {
    for (const word of WORD_TYPES) should(literalValue('', word)).eql({ ok: true, value: word });
    should(checkConfiguredAction('volume', '', 'up')).be.undefined();
    should(checkConfiguredAction('microphoneMute', '', 'toggle')).be.undefined();
    should(checkConfiguredAction('volume', '', 'toggle')).match(/"up" or "down"/);
  });

  it('leaves a value read for each input to be checked then', () => {
    for (const type of ['msg', 'flow', 'global', 'env']) {
      should(checkConfiguredAction('volume', 'anything', type)).be.undefined();
    }
  });
});
