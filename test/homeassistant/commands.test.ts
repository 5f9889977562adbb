import should from 'should';
import { deviceEntities, type Entity, parseCommand } from '../../src/homeassistant';
import { room410 } from './fixtures';

const entities = deviceEntities({ groups: room410() });
const entity = (key: string): Entity => {
  const found = entities.find((candidate) => candidate.key === key);
  if (found === undefined) throw new Error(`no entity ${key}`);
  return found;
};

function refusal(key: string, payload: unknown): { code?: string; message: string } {
  try {
    parseCommand(entity(key), payload);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error(`${key} took ${String(payload)}`);
}

describe('homeassistant/commands: a command is checked before anything is sent', () => {
  it('turns ON and OFF into a mute action, from a string or a Buffer', () => {
    should(parseCommand(entity('microphone_mute'), 'ON')).eql({
      kind: 'action',
      action: 'microphoneMute',
      value: true,
    });
    should(parseCommand(entity('audience_mute'), Buffer.from('OFF'))).eql({
      kind: 'action',
      action: 'audienceMute',
      value: false,
    });
    should(parseCommand(entity('camera_switcher'), 'OFF')).eql({
      kind: 'action',
      action: 'cameraSwitcher',
      value: false,
    });
  });

  it('takes a volume level within the range, as text or a number', () => {
    should(parseCommand(entity('speaker_volume'), '7')).eql({ kind: 'volume', target: 7 });
    should(parseCommand(entity('speaker_volume'), 20)).eql({ kind: 'volume', target: 20 });
  });

  it('switches a profile by its name, sending its id', () => {
    should(parseCommand(entity('room_profile'), 'Lecture')).eql({
      kind: 'action',
      action: 'profile',
      value: 'p-2',
    });
  });

  it('presses a button with PRESS', () => {
    should(parseCommand(entity('identify'), 'PRESS')).eql({ kind: 'action', action: 'identify' });
    should(parseCommand(entity('calibrate'), 'PRESS')).eql({ kind: 'action', action: 'calibrate' });
  });

  const bad: Array<[string, unknown]> = [
    ['microphone_mute', 'banana'],
    ['microphone_mute', ''],
    ['speaker_volume', '250'],
    ['speaker_volume', '-1'],
    ['speaker_volume', '7.5'],
    ['speaker_volume', 'loud'],
    ['room_profile', 'Party'],
    ['identify', 'NOW'],
    ['firmware', 'PRESS'],
    ['microphone_mute', { on: true }],
  ];
  for (const [key, payload] of bad) {
    it(`refuses ${JSON.stringify(payload)} for ${key} with INVALID_INPUT`, () => {
      const error = refusal(key, payload);
      should(error.code).equal('INVALID_INPUT');
    });
  }

  it('names what the entity takes', () => {
    should(refusal('speaker_volume', '250').message).match(/from 0 to 20/);
    should(refusal('room_profile', 'Party').message).match(/"Meeting", "Lecture"/);
  });
});
