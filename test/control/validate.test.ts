import should from 'should';
import { AUDIO_FIELDS, parseControlAction, validateAudioWrite } from '../../src/control';
import { MAX_WRITE_BYTES } from '../../src/control/validate';
import { thrown } from './helpers';

describe('control/validate: an audio write is checked before it is sent', () => {
  it('passes writable fields with good values unchanged', () => {
    const fields = { speakerTrebleLevel: 60, echoReductionLevel: 'High', microphoneMute: true };
    should(validateAudioWrite(fields, '2.1.0')).equal(fields);
  });

  it('takes a whole-valued number as an integer', () => {
    should(validateAudioWrite({ speakerBassLevel: 2.0 })).eql({ speakerBassLevel: 2 });
  });

  it('refuses a wrong type, naming the field and what it allows', () => {
    const error = thrown(() => validateAudioWrite({ microphoneMute: 'yes' }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message)
      .match(/microphoneMute/)
      .and.match(/true or false/);
  });

  it('refuses a fraction for an integer field', () => {
    const error = thrown(() => validateAudioWrite({ voiceAmplificationLevel: 10.5 }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/voiceAmplificationLevel must be a whole number/);
  });

  it('refuses a boolean for an integer field', () => {
    should(thrown(() => validateAudioWrite({ speakerTrebleLevel: true })).code).equal('INVALID_INPUT');
  });

  it('refuses a value out of range, naming the range', () => {
    const error = thrown(() => validateAudioWrite({ microphoneGain: 13 }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/microphoneGain must be from -6 to 12/);
  });

  it('refuses a value outside the enum, listing the choices', () => {
    const error = thrown(() => validateAudioWrite({ auxiliaryOutputState: 'Loud' }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/MicLevel, LineLevel, SpeakerOut, MixedSignal, SpeakerRef/);
  });

  it('refuses an enum value in the wrong case', () => {
    should(thrown(() => validateAudioWrite({ noiseReductionLevel: 'high' })).code).equal('INVALID_INPUT');
  });

  it('refuses a write to speakerVolume and points to the volume action', () => {
    const error = thrown(() => validateAudioWrite({ speakerVolume: 10 }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message)
      .match(/speakerVolume is read-only/)
      .and.match(/volume action/);
  });

  it('passes a field it does not know to the device', () => {
    should(validateAudioWrite({ futureSetting: 'anything', speakerBassLevel: 50 })).eql({
      futureSetting: 'anything',
      speakerBassLevel: 50,
    });
  });

  it('refuses an empty object and a non-object', () => {
    should(thrown(() => validateAudioWrite({})).code).equal('INVALID_INPUT');
    should(thrown(() => validateAudioWrite([1])).code).equal('INVALID_INPUT');
    should(thrown(() => validateAudioWrite('loud')).code).equal('INVALID_INPUT');
  });

  it('refuses a field newer than the firmware, naming the version it needs', () => {
    const error = thrown(() => validateAudioWrite({ dynamicBoostEnabled: true }, '1.8.5-0'));
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message)
      .match(/dynamicBoostEnabled needs firmware 1\.9 or later/)
      .and.match(/1\.8\.5-0/);
  });

  it('takes a field on exactly its floor', () => {
    should(validateAudioWrite({ dynamicBoostEnabled: true }, '1.9.278056-0')).eql({
      dynamicBoostEnabled: true,
    });
  });

  it('refuses microphoneGain on firmware 2.x, naming the last version that has it', () => {
    const error = thrown(() => validateAudioWrite({ microphoneGain: 3 }, '2.0.0'));
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/microphoneGain exists only up to firmware 1\.999\.999/);
  });

  it('takes microphoneGain between 1.3 and 1.x', () => {
    should(validateAudioWrite({ microphoneGain: 3 }, '1.3.0')).eql({ microphoneGain: 3 });
    should(validateAudioWrite({ microphoneGain: 3 }, '1.999.999')).eql({ microphoneGain: 3 });
  });

  it('leaves the firmware to the device when its version is unknown or unreadable', () => {
    should(validateAudioWrite({ voiceAmplificationGateThreshold: 65 })).eql({
      voiceAmplificationGateThreshold: 65,
    });
    should(validateAudioWrite({ voiceAmplificationGateThreshold: 65 }, 'dev-build')).eql({
      voiceAmplificationGateThreshold: 65,
    });
  });

  it('reports a wrong value before a firmware that is too old', () => {
    should(thrown(() => validateAudioWrite({ voiceAmplificationGateThreshold: 999 }, '1.0')).code).equal(
      'INVALID_INPUT',
    );
  });

  it('keeps the table of section 1.2: volume read-only, every other field writable', () => {
    const readOnly = Object.entries(AUDIO_FIELDS)
      .filter(([, field]) => !field.writable)
      .map(([name]) => name);
    should(readOnly).eql(['speakerVolume']);
  });
});

describe('control/validate: nothing unsafe is forwarded in an audio write', () => {
  /** An object with `key` as its own property, as JSON.parse makes one from a flow's text. */
  const ownKey = (key: string) => JSON.parse(`{"${key}": {"polluted": true}}`);

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    it(`refuses the key ${key} at the top, naming it`, () => {
      const error = thrown(() => validateAudioWrite({ speakerBassLevel: 50, ...ownKey(key) }));
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(new RegExp(`"${key}"`));
    });

    it(`refuses the key ${key} deep inside an unknown field, naming where`, () => {
      const fields = { futureSetting: { list: [1, ownKey(key)] } };
      const error = thrown(() => validateAudioWrite(fields));
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(new RegExp(`futureSetting\\.list\\[1\\]\\.${key}`));
    });
  }

  it('takes a write of 64 KiB and refuses one byte more, giving its size', () => {
    const weighing = (bytes: number) => ({
      futureSetting: 'x'.repeat(bytes - '{"futureSetting":""}'.length),
    });
    should(validateAudioWrite(weighing(MAX_WRITE_BYTES))).be.an.Object();
    const error = thrown(() => validateAudioWrite(weighing(MAX_WRITE_BYTES + 1)));
    should(error.code).equal('INVALID_INPUT');
    should(error.message)
      .match(/65537 bytes/)
      .and.match(/65536/);
  });

  it('counts the bytes, not the characters, of the write', () => {
    const error = thrown(() => validateAudioWrite({ futureSetting: 'é'.repeat(MAX_WRITE_BYTES / 2) }));
    should(error.code).equal('INVALID_INPUT');
  });

  it('refuses a write JSON cannot hold: a circular object', () => {
    const circular: Record<string, unknown> = { speakerBassLevel: 50 };
    circular.self = circular;
    should(thrown(() => validateAudioWrite(circular)).message).match(/circular/);
  });

  it('refuses a value nested thousands deep without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    should(thrown(() => validateAudioWrite({ futureSetting: deep })).code).equal('INVALID_INPUT');
  });

  it('names NaN and Infinity in a known field, not null', () => {
    should(thrown(() => validateAudioWrite({ speakerTrebleLevel: Number.NaN })).message).match(/got NaN$/);
    should(thrown(() => validateAudioWrite({ microphoneGain: -Infinity })).message).match(/got -Infinity$/);
  });

  it('refuses NaN and Infinity in an unknown field, which JSON would send as null', () => {
    const error = thrown(() => validateAudioWrite({ futureSetting: { level: Infinity } }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/Infinity at futureSetting\.level/);
  });
});

describe('control/actions: an action and its value become a checked command', () => {
  it('quotes a value JSON cannot write without failing itself', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    should(thrown(() => parseControlAction('volume', circular)).code).equal('INVALID_INPUT');
    should(thrown(() => parseControlAction('volume', 10n)).message).match(/got 10/);
  });

  it('refuses an unknown action, listing the actions', () => {
    const error = thrown(() => parseControlAction('reboot', undefined));
    should(error.code).equal('INVALID_INPUT');
    should(error.message)
      .match(/reboot/)
      .and.match(/microphoneMute/)
      .and.match(/soundLocationAlgorithm/);
  });

  it('takes true, false and "toggle" for the mutes', () => {
    should(parseControlAction('microphoneMute', true)).eql({ action: 'microphoneMute', value: true });
    should(parseControlAction('audienceMute', false)).eql({ action: 'audienceMute', value: false });
    should(parseControlAction('microphoneMute', 'toggle')).eql({ action: 'microphoneMute', value: 'toggle' });
  });

  it('takes the words a text channel sends for a boolean', () => {
    should(parseControlAction('microphoneMute', 'ON')).eql({ action: 'microphoneMute', value: true });
    should(parseControlAction('cameraSwitcher', 'false')).eql({ action: 'cameraSwitcher', value: false });
  });

  it('refuses another value for a mute, saying what it takes', () => {
    const error = thrown(() => parseControlAction('microphoneMute', 1));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/true, false or "toggle"/);
  });

  it('refuses audienceMute on firmware older than the field', () => {
    should(thrown(() => parseControlAction('audienceMute', true, '1.0.0')).code).equal(
      'UNSUPPORTED_FIRMWARE',
    );
  });

  it('takes "up" and "down" for the volume, nothing else', () => {
    should(parseControlAction('volume', 'up')).eql({ action: 'volume', value: 'up' });
    should(parseControlAction('volume', 'Down')).eql({ action: 'volume', value: 'down' });
    should(thrown(() => parseControlAction('volume', 5)).message).match(/"up" or "down"/);
  });

  it('checks the audio action as an audio write', () => {
    should(thrown(() => parseControlAction('audio', { speakerVolume: 3 })).code).equal('INVALID_INPUT');
  });

  it('takes identify and calibrate without a value', () => {
    should(parseControlAction('identify', 'ignored')).eql({ action: 'identify' });
    should(parseControlAction('calibrate', undefined)).eql({ action: 'calibrate' });
  });

  it('refuses identify on firmware older than 1.8', () => {
    const error = thrown(() => parseControlAction('identify', undefined, '1.7.9'));
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/identify needs firmware 1\.8 or later/);
  });

  it('takes a profile id or name, refusing an empty one', () => {
    should(parseControlAction('profile', ' Workshop ')).eql({
      action: 'profile',
      value: { by: 'either', value: 'Workshop' },
    });
    should(thrown(() => parseControlAction('profile', '')).code).equal('INVALID_INPUT');
  });

  it('refuses a non-boolean for the camera switcher', () => {
    should(thrown(() => parseControlAction('cameraSwitcher', 'maybe')).code).equal('INVALID_INPUT');
  });

  it('takes BP and TDOA for the sound location algorithm, in any case', () => {
    should(parseControlAction('soundLocationAlgorithm', 'tdoa')).eql({
      action: 'soundLocationAlgorithm',
      value: 'TDOA',
    });
    should(thrown(() => parseControlAction('soundLocationAlgorithm', 'XYZ')).message).match(/"BP" or "TDOA"/);
  });

  it('refuses the sound location algorithm on firmware before 2.0', () => {
    should(thrown(() => parseControlAction('soundLocationAlgorithm', 'BP', '1.9.278056-0')).code).equal(
      'UNSUPPORTED_FIRMWARE',
    );
  });

  it('checks the switching defaults', () => {
    should(thrown(() => parseControlAction('switchingDefaults', { zonesTriggerWaitTime: -1 })).code).equal(
      'INVALID_INPUT',
    );
  });
});
