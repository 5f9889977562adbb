import should from 'should';
import { buildBaseUrl, DeviceError, validateApiPath } from '../../src/api';

function configError(call: () => unknown): DeviceError {
  try {
    call();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('expected the call to throw');
}

describe('api/url: buildBaseUrl', () => {
  it('builds https://<IPv4> and leaves out port 443', () => {
    should(buildBaseUrl('192.168.1.20')).equal('https://192.168.1.20');
    should(buildBaseUrl('192.168.1.20', 443)).equal('https://192.168.1.20');
  });

  it('keeps any other port', () => {
    should(buildBaseUrl('10.0.0.5', 8443)).equal('https://10.0.0.5:8443');
    should(buildBaseUrl('10.0.0.5', 1)).equal('https://10.0.0.5:1');
    should(buildBaseUrl('10.0.0.5', 65535)).equal('https://10.0.0.5:65535');
  });

  it('puts an IPv6 address in brackets, given with or without them', () => {
    should(buildBaseUrl('fd00::1', 8443)).equal('https://[fd00::1]:8443');
    should(buildBaseUrl('[fd00::1]')).equal('https://[fd00::1]');
    should(buildBaseUrl('::1')).equal('https://[::1]');
  });

  it('accepts a host name, in lower case', () => {
    should(buildBaseUrl('Room-12.Example.org')).equal('https://room-12.example.org');
    should(buildBaseUrl('localhost', 8443)).equal('https://localhost:8443');
  });

  for (const [host, reason] of [
    ['', /empty/],
    ['http://10.0.0.5', /scheme/],
    ['https://10.0.0.5', /scheme/],
    ['10.0.0.5/api', /path/],
    ['admin@10.0.0.5', /user information/],
    ['admin:pw@10.0.0.5', /user information/],
    ['10.0.0.5 ', /space/],
    ['room 12', /space/],
    ['999.1.1.1', /not an IPv4/],
    ['10.0.0.5:8443', /not an IPv4/],
    ['under_score.example', /not an IPv4/],
    ['fe80::1%eth0', /zone index/],
  ] as const) {
    it(`refuses host '${host}' with INVALID_CONFIG`, () => {
      const error = configError(() => buildBaseUrl(host));
      should(error.code).equal('INVALID_CONFIG');
      should(error.message).match(reason);
    });
  }

  for (const port of [0, 65536, -1, 1.5, Number.NaN]) {
    it(`refuses port ${port} with INVALID_CONFIG`, () => {
      const error = configError(() => buildBaseUrl('10.0.0.5', port));
      should(error.code).equal('INVALID_CONFIG');
      should(error.message).match(/1 to 65535/);
    });
  }
});

describe('api/url: validateApiPath', () => {
  it('accepts paths under /api/v1, with a query string', () => {
    for (const path of [
      '/api/v1',
      '/api/v1/',
      '/api/v1/audio',
      '/api/v1/room/zones',
      '/api/v1/data?events=soundLocation',
      '/api/v1/room/zones/Lectern%20left',
      '/api/v1/data?path=..%2f..',
    ]) {
      should(validateApiPath(path)).equal(path);
    }
  });

  for (const path of [
    '',
    'api/v1/audio',
    '/api/v2/audio',
    '/api/v10/audio',
    '/api/v1/../../admin',
    '/api/v1/%2E%2E/admin',
    '/api/v1/room//zones',
    '/api/v1/audio x',
    '/api/v1/audio\r\nHost: evil',
    '/api/v1/audio#x',
    'https://evil/api/v1/audio',
    '/api/v1/..%2f..%2fadmin',
    '/api/v1/..%5Cadmin',
    '/api/v1/audio%0d%0aHost:%20evil',
    '/api/v1/%zz',
    `/api/v1/${'a'.repeat(2048)}`,
  ]) {
    it(`refuses ${JSON.stringify(path)} with INVALID_INPUT`, () => {
      should(configError(() => validateApiPath(path)).code).equal('INVALID_INPUT');
    });
  }
});
