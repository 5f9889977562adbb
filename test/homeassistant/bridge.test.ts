import should from 'should';
import type { StateGroups } from '../../src/control';
import {
  type DeviceFacts,
  DiscoveryBridge,
  leftoverRemovals,
  type MqttMessage,
} from '../../src/homeassistant';
import { checkConfig } from '../support/homeassistant-schema';
import { HOSTILE_NAMES, OPTIONS, room410 } from './fixtures';

const SAFE_TOPIC = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

const configs = (messages: MqttMessage[]) => messages.filter((message) => message.topic.endsWith('/config'));
const parsed = (message: MqttMessage) => JSON.parse(message.payload) as Record<string, unknown>;
const platformOf = (topic: string) => topic.split('/')[1] ?? '';

function bridgeWith(facts: DeviceFacts): { bridge: DiscoveryBridge; first: MqttMessage[] } {
  const bridge = new DiscoveryBridge(OPTIONS);
  return { bridge, first: bridge.update(facts) };
}

/** A device that names everything it can with `name`. */
function hostile(name: string): DeviceFacts {
  const groups = room410();
  return {
    groups: {
      ...groups,
      hardware: { ...groups.hardware, hardwareId: name, model: name, firmwareVersion: `2.1.0 ${name}` },
      status: { ...groups.status, leds: { [name]: { colour: name, state: name } } },
      profiles: { profiles: [{ profileId: name, name, active: true }] },
    },
    activeZone: name,
  };
}

describe('homeassistant/bridge: the device as discovery configs and states', () => {
  it('announces every entity of a 410 once, each in its platform’s documented schema', () => {
    const { first } = bridgeWith({ groups: room410(), activeZone: null, backgroundNoise: 38 });
    const announced = configs(first);
    should(announced.map((message) => message.topic.split('/')[3])).eql([
      'microphone_mute',
      'audience_mute',
      'speaker_volume',
      'camera_switcher',
      'room_profile',
      'active_zone',
      'background_noise',
      'identify',
      'calibrate',
      'firmware',
      'bar_1_connected',
      'bar_2_connected',
      'calibrating',
      'usb_connected',
      'components_connected',
      'led_console',
      'led_networkA',
    ]);
    for (const message of announced) {
      should(message.retain).be.true();
      should(checkConfig(platformOf(message.topic), parsed(message))).eql([], message.topic);
    }
  });

  it('builds unique ids from the hardware id and suggests entity ids without object_id', () => {
    const { first } = bridgeWith({ groups: room410() });
    const mute = parsed(configs(first)[0] as MqttMessage);
    should(mute.unique_id).equal('conference_audio_SIM410000000001_microphone_mute');
    should(mute.default_entity_id).equal('switch.room_1_microphone_mute');
    should(mute).not.have.property('object_id');
  });

  it('describes the device from what it reports, with the origin', () => {
    const { first } = bridgeWith({ groups: room410() });
    const config = parsed(configs(first)[0] as MqttMessage);
    should(config.device).eql({
      identifiers: ['conference_audio_SIM410000000001'],
      name: 'Room 1',
      manufacturer: 'Vendor',
      model: 'hdl410',
      sw_version: '2.1.0',
      hw_version: '5.0.123456',
      serial_number: 'SIM410000000001',
      configuration_url: 'https://192.0.2.10:443',
    });
    should(config.origin).eql({
      name: '@conference-audio/node-red-local-api',
      sw_version: '1.2.3',
      support_url: 'https://example.org/issues',
    });
  });

  it('makes every entity available only while Node-RED runs and the device is connected', () => {
    const { first } = bridgeWith({ groups: room410() });
    const config = parsed(configs(first)[0] as MqttMessage);
    should(config.availability_mode).equal('all');
    should(config.availability).eql([
      { topic: 'conference-audio/status', payload_available: 'online', payload_not_available: 'offline' },
      {
        topic: 'conference-audio/SIM410000000001/availability',
        payload_available: 'online',
        payload_not_available: 'offline',
      },
    ]);
  });

  it('publishes each state as a plain value on its own topic, the active zone as JSON null when none', () => {
    const { first } = bridgeWith({ groups: room410(), activeZone: null, backgroundNoise: 38 });
    const state = (key: string) =>
      first.find((message) => message.topic === `conference-audio/SIM410000000001/${key}/state`)?.payload;
    should(state('microphone_mute')).equal('OFF');
    should(state('speaker_volume')).equal('14');
    should(state('room_profile')).equal('Meeting');
    should(state('background_noise')).equal('38');
    should(state('bar_2_connected')).equal('ON');
    should(state('led_console')).equal('green solid');
    should(state('active_zone')).equal('{"zone":null}');
  });

  it('leaves out what the model or firmware lacks', () => {
    const groups = room410();
    const old: StateGroups = {
      audio: { microphoneMute: false, speakerVolume: 3 },
      hardware: { ...groups.hardware, model: 'hdl310', firmwareVersion: '1.7.0', hardwareComponents: [] },
      status: groups.status,
    };
    const keys = configs(bridgeWith({ groups: old }).first).map((message) => message.topic.split('/')[3]);
    for (const missing of [
      'audience_mute',
      'identify',
      'room_profile',
      'camera_switcher',
      'active_zone',
      'bar_2_connected',
    ])
      should(keys).not.containEql(missing);
    should(keys).containEql('bar_1_connected');
  });

  it('removes an entity the device no longer has with an empty retained config', () => {
    const { bridge } = bridgeWith({ groups: room410() });
    const groups = room410();
    const next = bridge.update({ groups: { ...groups, audio: { microphoneMute: true, speakerVolume: 14 } } });
    should(next).containDeep([
      { topic: 'homeassistant/switch/SIM410000000001/audience_mute/config', payload: '', retain: true },
    ]);
    should(next).containDeep([
      { topic: 'conference-audio/SIM410000000001/microphone_mute/state', payload: 'ON' },
    ]);
    // Only what changed: the mute's state and the removal (config and retained state).
    should(next.length).equal(3);
  });

  it('announces the configs again when the profile names change', () => {
    const { bridge } = bridgeWith({ groups: room410() });
    const groups = room410();
    const next = bridge.update({
      groups: { ...groups, profiles: { profiles: [{ profileId: 'p-3', name: 'Party', active: true }] } },
    });
    const select = configs(next).find((message) => message.topic.includes('/select/'));
    should(select && parsed(select).options).eql(['Party']);
  });

  it('sends everything again on announce, and only the device’s availability when it changes', () => {
    const { bridge, first } = bridgeWith({ groups: room410() });
    const again = bridge.announce();
    should(again[0]).eql({ topic: 'conference-audio/status', payload: 'online', retain: true });
    should(configs(again).length).equal(configs(first).length);
    should(bridge.setAvailable(true)).eql([
      { topic: 'conference-audio/SIM410000000001/availability', payload: 'online', retain: true },
    ]);
    should(bridge.setAvailable(true)).eql([]);
  });

  it('offers a volume from 0 to 20 until the device shows one above 20, then 0 to 100', () => {
    const { bridge, first } = bridgeWith({ groups: room410() });
    const range = (messages: MqttMessage[]) => {
      const number = configs(messages).find((message) => message.topic.includes('/number/'));
      return number && [parsed(number).min, parsed(number).max, parsed(number).step];
    };
    should(range(first)).eql([0, 20, 1]);
    const groups = room410();
    should(
      range(bridge.update({ groups: { ...groups, audio: { ...groups.audio, speakerVolume: 60 } } })),
    ).eql([0, 100, 1]);
  });

  it('empties what an earlier run left under another prefix or base, and only that', () => {
    const { bridge } = bridgeWith({ groups: room410() });
    const previous = bridge.retainedTopics;
    should(leftoverRemovals(previous, 'homeassistant', 'conference-audio')).eql([]);
    const removals = leftoverRemovals(previous, 'ha2', 'conference-audio');
    should(removals.length).equal(configs(bridge.announce()).length);
    for (const removal of removals) should(removal).containDeep({ payload: '', retain: true });
    should(leftoverRemovals(previous, 'homeassistant', 'site-1')).containDeep([
      { topic: 'conference-audio/SIM410000000001/availability', payload: '' },
    ]);
  });

  it('announces nothing of a device until its hardware id is read', () => {
    should(bridgeWith({ groups: { audio: { microphoneMute: false } } }).first).eql([]);
  });

  for (const name of HOSTILE_NAMES) {
    it(`keeps topics safe and templates free of device text for a device naming everything ${JSON.stringify(name.slice(0, 30))}`, () => {
      const { first } = bridgeWith(hostile(name));
      for (const message of first) {
        should(message.topic).match(SAFE_TOPIC);
        should(message.topic.length).be.below(300);
        should(message.payload).not.containEql('\u0000');
        should(message.payload.length).be.below(5000);
      }
      for (const message of configs(first)) {
        const config = parsed(message);
        should(checkConfig(platformOf(message.topic), config)).eql([]);
        should(String(config.unique_id)).match(/^[A-Za-z0-9_-]+$/);
        should(String(config.default_entity_id)).match(/^[a-z_]+\.[a-z0-9_]+$/);
        if (config.value_template !== undefined) should(config.value_template).equal('{{ value_json.zone }}');
      }
    });
  }
});
