import should from 'should';
import { deviceMessageFrom } from '../../src/api';
import { errorFromStatus } from '../../src/api/errors';
import { type ControlCommand, classifyRefusal, refusesResource } from '../../src/control';
import { DeviceError } from '../../src/errors';

/** The DeviceError the client throws for this answer, built the way the client builds it. */
function answered(statusCode: number, body: unknown, method = 'PATCH', path = '/api/v1/audio'): DeviceError {
  return errorFromStatus(method, path, statusCode, deviceMessageFrom(body), 'general');
}

function classified(
  error: unknown,
  command: ControlCommand,
  profiles?: Record<string, unknown>,
): DeviceError {
  const result = classifyRefusal(error, { command, ...(profiles === undefined ? {} : { profiles }) });
  should(result).be.instanceOf(DeviceError);
  return result as DeviceError;
}

const errors = (message: string) => ({ errors: [{ message }] });
const audio: ControlCommand = { action: 'audio', value: { dynamicBoostEnabled: true } };

describe('control/refusals: what a device refusal means', () => {
  it('passes on a vendor word the device refused as it came, though its status is 400', () => {
    const refused = new DeviceError('VENDOR_MISMATCH', 'The device refused the vendor word', {
      statusCode: 400,
    });
    should(classifyRefusal(refused, { command: audio })).equal(refused);
    should(refusesResource(refused)).be.false();
  });

  it('does not take a refused login as the device lacking the resource', () => {
    const refused = new DeviceError('AUTH_FAILED', 'Login refused', { statusCode: 409 });
    should(refusesResource(refused)).be.false();
    should(classifyRefusal(refused, { command: audio })).equal(refused);
  });

  it('reads "Firmware version is <" as UNSUPPORTED_FIRMWARE naming the field and the version', () => {
    const error = classified(
      answered(400, errors('Unsupported Attributes: dynamicBoostEnabled. Firmware version is < 1.9.0.')),
      audio,
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/^dynamicBoostEnabled needs firmware 1\.9\.0 or later/);
    should(error.statusCode).equal(400);
  });

  it('reads "Firmware version is >" as UNSUPPORTED_FIRMWARE naming the last version', () => {
    const error = classified(
      answered(400, errors('Unsupported Attributes: microphoneGain. Firmware version is > 1.999.999.')),
      { action: 'audio', value: { microphoneGain: 3 } },
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/^microphoneGain exists only up to firmware 1\.999\.999/);
  });

  it('names the action when the refusal names no field (identify)', () => {
    const error = classified(
      answered(400, errors('Unsupported. Firmware version is < 1.8.0.'), 'POST', '/api/v1/audio/identify'),
      { action: 'identify' },
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/^identify needs firmware 1\.8\.0 or later/);
  });

  it('reads a layout refusal of the algorithm on old firmware the same way', () => {
    const error = classified(
      answered(
        400,
        errors('Unsupported Attributes: soundLocationAlgorithm. Firmware version is < 2.0.0.'),
        'PATCH',
        '/api/v1/room/layout',
      ),
      { action: 'soundLocationAlgorithm', value: 'TDOA' },
    );
    should(error.code).equal('UNSUPPORTED_FIRMWARE');
    should(error.message).match(/^soundLocationAlgorithm needs firmware 2\.0\.0/);
  });

  it('gives any other 400 as INVALID_INPUT with the device message', () => {
    const error = classified(answered(400, errors('Unsupported Attributes: futureSetting.')), {
      action: 'audio',
      value: { futureSetting: 1 },
    });
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/Unsupported Attributes: futureSetting\./);
  });

  it('reads a problem-details 400 as INVALID_INPUT with its details', () => {
    const body = {
      type: 'about:blank',
      title: 'One or more problems occurred',
      instance: '/api/v1/room/layout',
      errorLevel: 'ERROR',
      problems: [
        {
          type: 'about:blank',
          errorCode: 1000,
          title: 'Schema validation failed',
          details: 'cameraSwitcherDefaults: switchToDefaultWaitTime is required',
          instance: '/api/v1/room/layout',
          errorLevel: 'ERROR',
        },
      ],
    };
    const error = classified(answered(400, body, 'PATCH', '/api/v1/room/layout'), {
      action: 'switchingDefaults',
      value: { zonesTriggerWaitTime: 1 },
    });
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/switchToDefaultWaitTime is required/);
  });

  it('reads 409 "Unsupported device type" as UNSUPPORTED_MODEL', () => {
    const error = classified(
      answered(409, errors('Unsupported device type'), 'POST', '/api/v1/room/profiles/x/active'),
      { action: 'profile', value: { by: 'either', value: 'Workshop' } },
    );
    should(error.code).equal('UNSUPPORTED_MODEL');
    should(error.message).match(/profile/);
  });

  it('reads 409 on calibrate as DEVICE_BUSY with the reason', () => {
    const error = classified(
      answered(409, errors('Speaker bar disconnected'), 'POST', '/api/v1/audio/calibrate'),
      {
        action: 'calibrate',
      },
    );
    should(error.code).equal('DEVICE_BUSY');
    should(error.message).match(/Speaker bar disconnected/);
  });

  it('reads 404 on a profile as NOT_FOUND listing the profiles that exist', () => {
    const body = {
      type: 'about:blank',
      title: 'One or more problems occurred',
      instance: '/api/v1/room/profiles/nope/active',
      errorLevel: 'ERROR',
      problems: [{ errorCode: 1000, title: 'Not found', details: 'room profile nope not found' }],
    };
    const profiles = {
      profiles: [
        { profileId: 'a', name: 'Default', active: true },
        { profileId: 'b', name: 'Workshop', active: false },
      ],
    };
    const error = classified(
      answered(404, body, 'POST', '/api/v1/room/profiles/nope/active'),
      { action: 'profile', value: { by: 'either', value: 'nope' } },
      profiles,
    );
    should(error.code).equal('NOT_FOUND');
    should(error.message)
      .match(/"nope"/)
      .and.match(/"Default", "Workshop"/);
  });

  it('leaves rate limiting as the client reported it, 429 or 409', () => {
    const limited = answered(429, errors('Too many requests. Rate limit is exceeded'));
    should(classifyRefusal(limited, { command: audio })).equal(limited);
    const limited409 = answered(409, errors('Too many requests'), 'POST', '/api/v1/audio/calibrate');
    should(classifyRefusal(limited409, { command: { action: 'calibrate' } })).equal(limited409);
  });

  it('leaves what is not a device refusal as it came', () => {
    const failure = new Error('socket hang up');
    should(classifyRefusal(failure, { command: audio })).equal(failure);
    const unreachable = new DeviceError('UNREACHABLE', 'gone');
    should(classifyRefusal(unreachable, { command: audio })).equal(unreachable);
  });
});

describe('control/refusals: a resource the device does not have', () => {
  it('is one answered 404 or 409 on GET', () => {
    should(
      refusesResource(answered(404, errors('Not Found'), 'GET', '/api/v1/room/zone-input-maps')),
    ).be.true();
    should(
      refusesResource(answered(409, errors('Unsupported device type'), 'GET', '/api/v1/room/profiles')),
    ).be.true();
  });

  it('is not one that is only rate limited or failed otherwise', () => {
    should(
      refusesResource(answered(409, errors('Too many requests'), 'GET', '/api/v1/room/profiles')),
    ).be.false();
    should(refusesResource(answered(500, errors('boom'), 'GET', '/api/v1/status'))).be.false();
    should(refusesResource(new DeviceError('TIMEOUT', 'slow'))).be.false();
  });
});
