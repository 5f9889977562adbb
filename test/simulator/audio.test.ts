import should from 'should';
import { DeviceUnderTest, messagesOf } from './helpers';

type Audio = Record<string, unknown>;

describe('simulator: audio settings and volume', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  async function audio(): Promise<Audio> {
    return (await device.call('GET', '/api/v1/audio')).json as Audio;
  }

  async function refusal(body: unknown): Promise<string[]> {
    const answer = await device.call('PATCH', '/api/v1/audio', { body });
    should(answer.status).equal(400);
    return messagesOf(answer.json);
  }

  describe('GET /api/v1/audio', () => {
    it('serves the starting values of the fields that firmware 1.9 has', async () => {
      await device.start();
      should(await audio()).eql({
        microphoneMute: false,
        audienceMute: false,
        microphonePickupState: 'Mono',
        microphoneGain: 3,
        speakerTrebleLevel: 90,
        speakerBassLevel: 16,
        speakerVolume: 14,
        echoReductionLevel: 'Medium',
        noiseReductionLevel: 'Medium',
        auxiliaryOutputState: 'LineLevel',
        voiceAmplificationEnabled: false,
        voiceAmplificationLevel: 25,
        voiceAmplificationAuxInLevel: 'Line',
        dynamicBoostEnabled: false,
        microphoneDuckingEnabled: false,
      });
    });

    it('leaves out the fields below their firmware floor', async () => {
      await device.start({ firmwareVersion: '1.1.0' });
      const fields = Object.keys(await audio());
      for (const field of [
        'echoReductionLevel',
        'microphoneGain',
        'dynamicBoostEnabled',
        'voiceAmplificationGateThreshold',
      ]) {
        should(fields).not.containEql(field);
      }
      should(fields).containEql('audienceMute');
    });

    it('drops microphoneGain and adds the 2.0 fields on firmware 2.x', async () => {
      await device.start({ firmwareVersion: '2.0.1-7' });
      const fields = await audio();
      should(fields).not.have.property('microphoneGain');
      should(fields).have.properties({
        voiceAmplificationGateThreshold: 65,
        voiceAmplificationUsbOutputGainLevel: 10,
      });
    });

    it('compares versions by numeric groups: 1.10 is above 1.9', async () => {
      await device.start({ firmwareVersion: '1.10.0' });
      should(await audio()).have.property('dynamicBoostEnabled');
    });
  });

  describe('PATCH /api/v1/audio', () => {
    beforeEach(() => device.start());

    it('applies a partial body and answers {}', async () => {
      const answer = await device.call('PATCH', '/api/v1/audio', {
        body: { microphoneMute: true, echoReductionLevel: 'High' },
      });
      should([answer.status, answer.json]).eql([200, {}]);
      should(await audio()).have.properties({
        microphoneMute: true,
        echoReductionLevel: 'High',
        speakerBassLevel: 16,
      });
    });

    it('takes a whole-valued number such as 2.0 as an integer', async () => {
      const answer = await device.call('PATCH', '/api/v1/audio', { rawBody: '{"speakerTrebleLevel": 2.0}' });
      should(answer.status).equal(200);
      should(await audio()).have.property('speakerTrebleLevel', 2);
    });

    it('writes nothing when one field of the body is bad', async () => {
      should(await refusal({ microphoneMute: true, speakerBassLevel: 101 })).eql([
        'Unsupported Attributes: speakerBassLevel. Must be between 0 and 100.',
      ]);
      should(await audio()).have.property('microphoneMute', false);
    });

    it('refuses a write to speakerVolume, which is read-only', async () => {
      should(await refusal({ speakerVolume: 10 })).eql(['Unsupported Attributes: speakerVolume.']);
    });

    it('refuses an unknown field by name', async () => {
      should(await refusal({ mute: true })).eql(['Unsupported Attributes: mute.']);
    });

    it('names the first bad field in the order of the body', async () => {
      should(await refusal({ audienceMute: 'yes', speakerTrebleLevel: 'high' })).eql([
        'Unsupported Attributes: audienceMute. Expected boolean.',
      ]);
    });

    for (const [name, body, message] of [
      ['a string for a boolean', { microphoneMute: 'true' }, 'microphoneMute. Expected boolean.'],
      [
        'a boolean for an integer',
        { voiceAmplificationLevel: true },
        'voiceAmplificationLevel. Expected integer.',
      ],
      ['a fraction for an integer', { speakerBassLevel: 2.5 }, 'speakerBassLevel. Expected integer.'],
      ['a value below the range', { microphoneGain: -7 }, 'microphoneGain. Must be between -6 and 12.'],
      [
        'a value outside the enum',
        { auxiliaryOutputState: 'lineLevel' },
        'auxiliaryOutputState. Invalid enum value.',
      ],
    ] as const) {
      it(`refuses ${name}`, async () => {
        should(await refusal(body)).eql([`Unsupported Attributes: ${message}`]);
      });
    }

    for (const [name, rawBody] of [
      ['an empty object', '{}'],
      ['a list', '[]'],
      ['text that is not JSON', '{"microphoneMute":'],
    ] as const) {
      it(`asks for at least one setting when the body is ${name}`, async () => {
        const answer = await device.call('PATCH', '/api/v1/audio', { rawBody });
        should(answer.status).equal(400);
        should(messagesOf(answer.json)).eql(['At least one valid control setting must be included.']);
      });
    }
  });

  describe('firmware floors and ceiling in PATCH', () => {
    it('refuses a field below its floor, naming the floor', async () => {
      await device.start({ firmwareVersion: '1.8.9' });
      should(await refusal({ dynamicBoostEnabled: true })).eql([
        'Unsupported Attributes: dynamicBoostEnabled. Firmware version is < 1.9.0.',
      ]);
    });

    it('refuses microphoneGain on firmware 2.x, naming the last version that has it', async () => {
      await device.start({ firmwareVersion: '2.0.0' });
      should(await refusal({ microphoneGain: 0 })).eql([
        'Unsupported Attributes: microphoneGain. Firmware version is > 1.999.999.',
      ]);
    });

    it('follows a firmware version set while running', async () => {
      await device.start();
      device.simulator.setFirmwareVersion('2.1.0');
      const answer = await device.call('PATCH', '/api/v1/audio', {
        body: { voiceAmplificationGateThreshold: 100 },
      });
      should(answer.status).equal(200);
    });
  });

  describe('what a write answers', () => {
    it('answers an empty body when set so', async () => {
      await device.start({ writeAnswer: 'empty-body' });
      const answer = await device.call('PATCH', '/api/v1/audio', { body: { microphoneMute: true } });
      should([answer.status, answer.text]).eql([200, '']);
    });

    it('echoes the request when set so', async () => {
      await device.start();
      device.simulator.setWriteAnswer('echo');
      const answer = await device.call('PATCH', '/api/v1/audio', { body: { microphoneMute: true } });
      should(answer.json).eql({ microphoneMute: true });
    });
  });

  describe('PUT /api/v1/audio/volume/change', () => {
    const step = (operation: unknown) =>
      device.call('PUT', '/api/v1/audio/volume/change', { body: { operation } });

    it('steps the volume by one, up and down', async () => {
      await device.start();
      should((await step('increment')).status).equal(200);
      should(await audio()).have.property('speakerVolume', 15);
      await step('decrement');
      await step('decrement');
      should(await audio()).have.property('speakerVolume', 13);
    });

    it('stays at the top of the range and still answers 200', async () => {
      await device.start();
      device.simulator.setAudio({ speakerVolume: 20 });
      should((await step('increment')).status).equal(200);
      should(await audio()).have.property('speakerVolume', 20);
    });

    it('refuses a missing or misspelled operation', async () => {
      await device.start();
      for (const operation of [undefined, 'Increment', 'up']) {
        const answer = await step(operation);
        should(answer.status).equal(400);
        should(messagesOf(answer.json)).eql(['Unsupported Attributes: operation.']);
      }
    });

    it('steps by about 5 on a range of 0 to 100 when set so', async () => {
      await device.start({ volumeScale: { max: 100, step: 5 } });
      should(await audio()).have.property('speakerVolume', 70);
      await step('increment');
      should(await audio()).have.property('speakerVolume', 75);
    });

    it('keeps the volume at the same share when the range changes', async () => {
      await device.start();
      device.simulator.setVolumeScale({ max: 100, step: 5 });
      should(await audio()).have.property('speakerVolume', 70);
    });

    it('never announces an audio change on the change stream', async () => {
      await device.start();
      await step('increment');
      await device.call('PATCH', '/api/v1/audio', { body: { microphoneMute: true } });
      device.simulator.emitChange('marker', {});
      await device.event('marker');
      should(device.changes.events.map((event) => event.event)).eql(['marker']);
    });
  });
});
