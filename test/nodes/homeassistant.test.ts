import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import { checkConfig } from '../support/homeassistant-schema';
import { projectRoot } from '../support/node-types';
import {
  allLogText,
  catchModule,
  completeModule,
  counter,
  delay,
  deviceConfig,
  doneWatchers,
  FAST_READINGS,
  helper,
  IN_PRESENTER,
  loadWatched,
  nodeModules,
  receiveUntilDone,
  tab,
  until,
  useSimulator,
} from './support';

const PASSWORD = 'h0me-Assistant!';
const NODE = 'n-ha';

describe('Home Assistant node (conference-audio-homeassistant)', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  useSimulator({ passwords: { general: PASSWORD }, model: '410' }, (started) => {
    sim = started;
  });

  async function load(extra: Record<string, unknown> = {}) {
    ({ out, ok, failed } = await loadWatched(sim, PASSWORD, {
      id: NODE,
      type: 'conference-audio-homeassistant',
      room: 'Room 1',
      prefix: 'homeassistant',
      base: 'conference-audio',
      ...extra,
    }));
    await until(() => configs().length >= 15, 'the configs of a 410');
  }

  /** What each topic holds now, as a broker keeps the retained messages sent so far. */
  function retained(): Map<string, string> {
    const topics = new Map<string, string>();
    for (const msg of out.messages) {
      should(msg.retain).be.true();
      if (msg.payload === '') topics.delete(String(msg.topic));
      else topics.set(String(msg.topic), String(msg.payload));
    }
    return topics;
  }

  function configs(): Array<{ topic: string; config: Record<string, unknown> }> {
    return [...retained()]
      .filter(([topic]) => topic.startsWith('homeassistant/') && topic.endsWith('/config'))
      .map(([topic, payload]) => ({ topic, config: JSON.parse(payload) as Record<string, unknown> }));
  }

  /** The config of the entity whose unique id ends in `key`. */
  function entity(key: string): Record<string, unknown> {
    const found = configs().find(({ config }) => String(config.unique_id).endsWith(`_${key}`));
    if (found === undefined) throw new Error(`no entity ${key}`);
    return found.config;
  }

  const stateOf = (key: string) => retained().get(String(entity(key).state_topic));

  function command(key: string, payload: unknown): Promise<void> {
    return receiveUntilDone(NODE, { topic: entity(key).command_topic, payload }, { ok, failed });
  }

  const caughtCode = () => (failed.messages[0]?.error as { code?: string } | undefined)?.code;

  function writes(): string[] {
    return sim.requests
      .filter((request) => request.method !== 'GET' && !request.path.includes('/auth/'))
      .map((request) => `${request.method} ${request.path}`);
  }

  describe('discovery', () => {
    it('announces each entity of the device in its platform’s documented schema', async () => {
      await load();
      for (const { topic, config } of configs()) {
        const platform = topic.split('/')[1] ?? '';
        should(checkConfig(platform, config)).eql([], topic);
      }
      const platforms = new Set(configs().map(({ topic }) => topic.split('/')[1]));
      should([...platforms].sort()).eql(['binary_sensor', 'button', 'number', 'select', 'sensor', 'switch']);
    });

    it('describes the device from its hardware answer, the maker’s word and its address', async () => {
      await load();
      const device = entity('microphone_mute').device as Record<string, unknown>;
      should(device).have.properties({
        name: 'Room 1',
        manufacturer: sim.vendor,
        model: 'hdl410',
        serial_number: 'SIM410000000001',
        configuration_url: sim.url.replace(/\/$/, ''),
      });
      should(device.sw_version).equal(sim.getState().firmwareVersion);
      const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      should(entity('microphone_mute').origin).containDeep({
        name: manifest.name,
        sw_version: manifest.version,
      });
    });

    it('announces everything again when Home Assistant says it is online', async () => {
      await load();
      const before = out.count;
      await receiveUntilDone(NODE, { topic: 'homeassistant/status', payload: 'online' }, { ok, failed });
      const again = out.messages.slice(before).filter((msg) => String(msg.topic).endsWith('/config'));
      should(again.length).equal(configs().length);
    });

    it('announces nothing again when Home Assistant goes offline', async () => {
      await load();
      const before = out.count;
      await receiveUntilDone(NODE, { topic: 'homeassistant/status', payload: 'offline' }, { ok, failed });
      should(out.count).equal(before);
    });

    it('removes the identify button when the firmware no longer has it', async () => {
      await load();
      entity('identify');
      sim.setFirmwareVersion('1.7.0');
      await until(
        () => !configs().some(({ topic }) => topic.includes('/identify/')),
        'the identify config removed',
      );
      should(out.messages).containDeep([
        { topic: 'homeassistant/button/SIM410000000001/identify/config', payload: '' },
      ]);
    });

    it('empties the configs left under the old prefix when the prefix changes', async () => {
      await load();
      const old = configs().map(({ topic }) => topic);
      const flow = [
        tab,
        deviceConfig(sim, { audioInterval: 0 }),
        {
          id: NODE,
          type: 'conference-audio-homeassistant',
          z: 'f1',
          device: 'device',
          prefix: 'ha2',
          wires: [['out']],
        },
        { id: 'out', type: 'helper', z: 'f1' },
      ];
      const before = out.count;
      await helper.setFlows(flow, 'full', { device: { password: PASSWORD } });
      out = counter(helper.getNode('out'));
      await until(
        () => out.messages.some((msg) => String(msg.topic).startsWith('ha2/')),
        'configs under ha2',
      );
      const emptied = out.messages.filter((msg) => msg.payload === '').map((msg) => msg.topic);
      should(emptied).containDeep(old);
      should(before).be.above(0);
    });

    it('sets the device available once connected, and Node-RED available at deploy', async () => {
      await load();
      const availability = entity('microphone_mute').availability as Array<{ topic: string }>;
      await until(() => availability.every(({ topic }) => retained().get(topic) === 'online'), 'both online');
    });
  });

  describe('commands', () => {
    it('mutes the microphone with ON and publishes the new state', async () => {
      await load();
      await command('microphone_mute', 'ON');
      should(sim.getState().audio).have.property('microphoneMute', true);
      await until(() => stateOf('microphone_mute') === 'ON', 'the mute state');
    });

    it('mutes the audience', async () => {
      await load();
      await command('audience_mute', 'ON');
      should(sim.getState().audio).have.property('audienceMute', true);
    });

    it('turns the camera switcher off', async () => {
      await load();
      await command('camera_switcher', 'OFF');
      should(sim.getState().cameraSwitcherEnabled).be.false();
    });

    it('steps the volume to the level asked for', async () => {
      await load();
      const start = Number(stateOf('speaker_volume'));
      await command('speaker_volume', String(start + 3));
      should(sim.getState().audio).have.property('speakerVolume', start + 3);
      should(writes().length).equal(3);
      await until(() => stateOf('speaker_volume') === String(start + 3), 'the volume state');
    });

    it('switches the room profile by its name', async () => {
      await load();
      const options = entity('room_profile').options as string[];
      const other = options.find((name) => name !== stateOf('room_profile')) ?? '';
      await command('room_profile', other);
      should(sim.getState().profiles.find((profile) => profile.active)?.name).equal(other);
    });

    it('identifies the device with PRESS', async () => {
      await load();
      await command('identify', 'PRESS');
      should(writes()).eql(['POST /api/v1/audio/identify']);
    });

    it('starts a calibration with PRESS', async () => {
      await load();
      await command('calibrate', 'PRESS');
      should(writes()).eql(['POST /api/v1/audio/calibrate']);
    });

    it('refuses a bad value at a Catch node, sends nothing and publishes the state again', async () => {
      await load();
      const state = stateOf('speaker_volume');
      const before = out.count;
      await command('speaker_volume', '250');
      should(failed.count).equal(1);
      should(caughtCode()).equal('INVALID_INPUT');
      should(writes()).eql([]);
      should(out.messages.slice(before)).eql([
        {
          topic: entity('speaker_volume').state_topic,
          payload: state,
          retain: true,
          _msgid: out.messages[before]?._msgid,
        },
      ]);
    });

    it('refuses a profile the device does not have', async () => {
      await load();
      await command('room_profile', 'Party');
      should(caughtCode()).equal('INVALID_INPUT');
      should(writes()).eql([]);
    });

    it('leaves topics of other devices alone', async () => {
      await load();
      await receiveUntilDone(
        NODE,
        { topic: 'conference-audio/OTHER/microphone_mute/set', payload: 'ON' },
        { ok, failed },
      );
      should(ok.count).equal(1);
      should(writes()).eql([]);
    });
  });

  describe('following the room', () => {
    useSimulator({ passwords: { general: PASSWORD }, model: '410', ...FAST_READINGS }, (started) => {
      sim = started;
    });

    const activeZone = () => JSON.parse(stateOf('active_zone') ?? '{}') as { zone?: string | null };

    it('publishes the zone the talker speaks in as the active zone, and no zone after the release', async () => {
      await load();
      await until(() => activeZone().zone === null, 'no active zone at first');
      sim.placeTalker(IN_PRESENTER);
      await until(() => activeZone().zone === 'Presenter', 'the presenter zone');
      sim.silenceTalker();
      // The node follows the active zone node's default release (5 s): a generous bound beyond it.
      await until(() => activeZone().zone === null, 'no zone after the release', 15_000);
    });

    it('publishes the background noise the device measures, in dB', async () => {
      await load();
      await until(() => stateOf('background_noise') !== undefined, 'a noise reading');
      should(Number(stateOf('background_noise')))
        .be.a.Number()
        .and.not.be.NaN();
    });
  });

  describe('on a 310 with firmware 1.7', () => {
    useSimulator({ passwords: { general: PASSWORD }, model: '310', firmwareVersion: '1.7.0' }, (started) => {
      sim = started;
    });

    it('announces neither what the model nor what the firmware lacks, and reports no error', async () => {
      await helper.load(
        nodeModules(completeModule, catchModule),
        [
          tab,
          deviceConfig(sim, { audioInterval: 0 }),
          { id: NODE, type: 'conference-audio-homeassistant', z: 'f1', device: 'device', wires: [['out']] },
          { id: 'out', type: 'helper', z: 'f1' },
          ...doneWatchers(NODE),
        ],
        { device: { password: PASSWORD } },
      );
      out = counter(helper.getNode('out'));
      failed = counter(helper.getNode('failed'));
      await until(() => configs().some(({ topic }) => topic.includes('/led_')), 'the configs of a 310');
      await delay(500);
      const keys = configs().map(({ topic }) => topic.split('/')[3]);
      for (const missing of ['room_profile', 'active_zone', 'identify', 'bar_2_connected'])
        should(keys).not.containEql(missing);
      should(keys).containEql('bar_1_connected');
      should(failed.count).equal(0);
      should(allLogText()).not.match(/"level":20/);
    });
  });
});
