/** Device states as the device reports them, for the Home Assistant tests: a 410, and hostile names. */
import type { StateGroups } from '../../src/control';
import type { BridgeOptions } from '../../src/homeassistant';

export function room410(): StateGroups {
  return {
    audio: { microphoneMute: false, audienceMute: false, speakerVolume: 14 },
    hardware: {
      hardwareId: 'SIM410000000001',
      model: 'hdl410',
      firmwareVersion: '2.1.0',
      deviceVersion: '5.0.123456',
      hardwareComponents: [
        { model: 'ConnectModule2', hardwareId: 'SIMCM2000000001' },
        { model: 'Bar', hardwareId: 'SIMBAR000000001', portNumber: 1 },
        { model: 'Bar', hardwareId: 'SIMBAR000000002', portNumber: 2 },
      ],
    },
    status: {
      leds: { console: { colour: 'green', state: 'solid' }, networkA: { colour: 'green', state: 'solid' } },
      usb: { status: 'connected' },
      deviceComponents: { status: 'connected' },
      calibrating: false,
    },
    cameraSwitcher: { enabled: true },
    profiles: {
      profiles: [
        { profileId: 'p-1', name: 'Meeting', active: true },
        { profileId: 'p-2', name: 'Lecture', active: false },
      ],
    },
  };
}

/** Names and ids that break templates, topics and ids when used as they are. */
export const HOSTILE_NAMES = [
  'x }}{{ states.lock | list }}{{ "',
  '{% for s in states %}{{ s }}{% endfor %}',
  `it's "quoted"`,
  'a/b',
  'a#b',
  'a+b',
  'nul\u0000here',
  'n'.repeat(10_000),
];

export const OPTIONS: BridgeOptions = {
  prefix: 'homeassistant',
  base: 'conference-audio',
  origin: {
    name: '@conference-audio/node-red-local-api',
    version: '1.2.3',
    supportUrl: 'https://example.org/issues',
  },
  identity: () => ({ name: 'Room 1', manufacturer: 'Vendor', url: 'https://192.0.2.10:443' }),
};
