import should from 'should';
import { validateOptions } from '../../src/simulator/options';
import { RequestLog } from '../../src/simulator/request-log';
import { DeviceUnderTest, messagesOf } from './helpers';

/** Names every plain object answers to through its prototype, which a client may send as its own. */
const INHERITED_NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__'];

/** A JSON body with `name` as its own key, as a client sends it. */
const bodyWith = (name: string, value: unknown) => `{${JSON.stringify(name)}: ${JSON.stringify(value)}}`;

describe('simulator: a name a client chooses is never looked up on an object’s prototype', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  for (const name of INHERITED_NAMES) {
    it(`answers PATCH /api/v1/audio with the key ${name} 400 "Unsupported Attributes", as any unknown key`, async () => {
      await device.start();
      const answer = await device.call('PATCH', '/api/v1/audio', { rawBody: bodyWith(name, 1) });
      should(answer.status).equal(400);
      should(messagesOf(answer.json)).eql([`Unsupported Attributes: ${name}.`]);
    });

    it(`refuses the audio control with the key ${name} as no audio field`, async () => {
      await device.start();
      const answer = await device.caller.call('PUT', '/_simulator/audio', {
        bare: true,
        rawBody: bodyWith(name, 1),
      });
      should(answer.status).equal(400);
      should(answer.text).match(new RegExp(`${name} is not an audio field`));
    });
  }

  it('serves a zone’s own key __proto__ as a key when it respells the zones', async () => {
    await device.start({ firmware: 'layout', layoutSpelling: 'zoneId' });
    const zone = JSON.parse('{"id": "z1", "geometry": {}, "__proto__": {"injected": true}}');
    device.simulator.setZones([zone]);
    const answer = await device.call('GET', '/api/v1/room/layout');
    should(answer.text).match(/"__proto__":\{"injected":true\}/);
    should(answer.text).match(/"zoneId":"z1"/);
  });
});

describe('simulator: options from a caller without types', () => {
  it('ignores an option named like a prototype member, as any unknown option', () => {
    for (const name of INHERITED_NAMES) {
      should(() => validateOptions(JSON.parse(bodyWith(name, 1)))).not.throw();
    }
  });
});

describe('simulator: the request log', () => {
  it('counts requests to a path named like a prototype member as any other path', () => {
    const log = new RequestLog();
    for (const path of ['constructor', 'constructor', '__proto__']) {
      log.record({ method: 'GET', path, headers: {}, status: 404, time: 0 });
    }
    should(log.stats().requestsByPath).eql({ constructor: 2, ['__proto__']: 1 });
  });
});
