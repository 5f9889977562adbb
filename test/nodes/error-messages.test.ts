import { readFileSync } from 'node:fs';
import type { NodeAPI } from 'node-red';
import should from 'should';
import { DeviceError, ERROR_CODES } from '../../src/errors';
import { errorLocaliser, toNodeError } from '../../src/nodes/glue/errors';
import { catalogueFile, languages } from '../support/node-types';
import { translatorFor } from './support';

const locales = languages;

function redWith(translate: (key: string, params?: Record<string, string | number>) => string): NodeAPI {
  return { _: translate } as unknown as NodeAPI;
}

const refused = new DeviceError(
  'AUTH_FAILED',
  "Login refused: wrong password for account 'general' (device said: Invalid account or password)",
  { statusCode: 401, deviceMessage: 'Invalid account or password', retryAfterMs: 1000 },
);

describe('error messages users read (nodes/glue/errors)', () => {
  for (const locale of locales) {
    it(`${locale}: has a summary for every error code`, () => {
      const file = catalogueFile('conference-audio-device', locale);
      const codes = JSON.parse(readFileSync(file, 'utf8'))['conference-audio-device'].codes as Record<
        string,
        string
      >;
      should(Object.keys(codes).sort()).eql([...ERROR_CODES].sort());
      for (const code of ERROR_CODES) should(codes[code].trim()).not.be.empty();
    });
  }

  it('puts the German summary of the code before the client detail', () => {
    const error = toNodeError(refused, errorLocaliser(redWith(translatorFor('de'))));
    should(error.message).equal(
      "Anmeldung abgelehnt: Konto und Passwort prüfen: Login refused: wrong password for account 'general' (device said: Invalid account or password)",
    );
  });

  it('keeps the English message as the client wrote it', () => {
    const error = toNodeError(refused, errorLocaliser(redWith(translatorFor('en-US'))));
    should(error.message).equal(refused.message);
  });

  it('keeps the code, status, device message and retry time that flows switch on', () => {
    const error = toNodeError(refused, errorLocaliser(redWith(translatorFor('de')))) as DeviceError;
    should(error).be.instanceOf(DeviceError);
    should(error).match({
      code: 'AUTH_FAILED',
      statusCode: 401,
      deviceMessage: 'Invalid account or password',
      retryAfterMs: 1000,
    });
  });

  it('falls back to the client detail when no catalogue is loaded', () => {
    const error = toNodeError(refused, errorLocaliser(redWith((key) => key)));
    should(error.message).equal(refused.message);
  });
});
