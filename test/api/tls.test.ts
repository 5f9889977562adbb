import { createServer, type Server, type Socket } from 'node:net';
import should from 'should';
import { DeviceClient, DeviceError, normaliseFingerprint, readCertificateFingerprint } from '../../src/api';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { PASSWORD, useHarness } from './helpers';

const SAMPLE =
  'ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89';

/** Another certificate than the shared one, flipped in the first byte pair: same length, wrong pin. */
function otherFingerprint(fingerprint: string): string {
  return `${fingerprint.startsWith('00') ? '11' : '00'}${fingerprint.slice(2)}`;
}

describe('api/tls: normaliseFingerprint', () => {
  it('turns colon-separated lower case into upper case', () => {
    should(normaliseFingerprint(SAMPLE)).equal(SAMPLE.toUpperCase());
  });

  it('accepts plain hex and spaces or dashes between bytes', () => {
    should(normaliseFingerprint(SAMPLE.replace(/:/g, ''))).equal(SAMPLE.toUpperCase());
    should(normaliseFingerprint(` ${SAMPLE.replace(/:/g, ' ')} `)).equal(SAMPLE.toUpperCase());
    should(normaliseFingerprint(SAMPLE.replace(/:/g, '-'))).equal(SAMPLE.toUpperCase());
  });

  for (const bad of ['', 'AB:CD', `${SAMPLE}:00`, SAMPLE.replace('ab', 'zz'), 'sha256/abc']) {
    it(`refuses ${JSON.stringify(bad.slice(0, 20))}... with INVALID_CONFIG`, () => {
      should(() => normaliseFingerprint(bad)).throw(DeviceError, { code: 'INVALID_CONFIG' });
    });
  }
});

describe('api/tls: certificate pinning', () => {
  const harness = useHarness();

  it('connects when the pin matches the device certificate', async () => {
    const client = harness.client({ tls: { mode: 'pin', fingerprint: harness.simulator.fingerprint256 } });
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
    should(client.pinnedFingerprint).equal(harness.simulator.fingerprint256);
  });

  it('connects with the pin given as plain lower-case hex', async () => {
    const plain = harness.simulator.fingerprint256.replace(/:/g, '').toLowerCase();
    const client = harness.client({ tls: { mode: 'pin', fingerprint: plain } });
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
  });

  it('refuses a wrong pin with TLS, showing expected and seen, before any HTTP request', async () => {
    const wrong = otherFingerprint(harness.simulator.fingerprint256);
    const client = harness.client({ tls: { mode: 'pin', fingerprint: wrong } });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'TLS');
    should(error.message).containEql(`expected ${wrong}`);
    should(error.message).containEql(`seen ${harness.simulator.fingerprint256}`);
    should(harness.simulator.requests).have.length(0);
    should(client.state).equal('unreachable');
  });

  it('refuses a wrong pin on every attempt (no resumed session slips through)', async () => {
    const client = harness.client({
      tls: { mode: 'pin', fingerprint: otherFingerprint(harness.simulator.fingerprint256) },
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await harness.failure(client.request('GET', '/api/v1/audio'), 'TLS');
    }
    should(harness.simulator.requests).have.length(0);
  });

  it("pins the first certificate seen without a fingerprint and emits 'pinned'", async () => {
    const client = harness.client({ tls: { mode: 'pin' } });
    const pinned: string[] = [];
    client.on('pinned', (fingerprint) => pinned.push(fingerprint));
    should(client.pinnedFingerprint).be.undefined();
    await client.request('GET', '/api/v1/audio');
    await client.request('GET', '/api/v1/room/zones');
    should(pinned).eql([harness.simulator.fingerprint256]);
    should(client.pinnedFingerprint).equal(harness.simulator.fingerprint256);
  });

  it('holds a first-use pin: another certificate at the same address is refused', async () => {
    const client = harness.client({ tls: { mode: 'pin' } });
    await client.request('GET', '/api/v1/audio');
    const { port } = harness.simulator;
    await harness.simulator.close();
    // Same address, new certificate: what a swapped device or an impostor would present.
    const impostor = await startSimulator({ port, passwords: { general: PASSWORD } });
    try {
      const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'TLS');
      should(error.message).containEql(`seen ${impostor.fingerprint256}`);
      should(impostor.requests).have.length(0);
    } finally {
      await impostor.close();
    }
  });
});

describe('api/tls: CA and insecure modes', () => {
  const harness = useHarness();
  let stranger: DeviceSimulator;

  before(async () => {
    stranger = await startSimulator();
  });

  after(async () => {
    await stranger.close();
  });

  it("verifies the device against the CA given in 'ca' mode", async () => {
    const client = harness.client({ tls: { mode: 'ca', ca: harness.simulator.certificatePem } });
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
  });

  it("refuses a device whose certificate another CA signed in 'ca' mode", async () => {
    should(stranger.fingerprint256).not.equal(harness.simulator.fingerprint256);
    const client = harness.client({ tls: { mode: 'ca', ca: stranger.certificatePem } });
    const error = await harness.failure(client.request('GET', '/api/v1/audio'), 'TLS');
    should(error.message).match(/TLS failed/);
    should(harness.simulator.requests).have.length(0);
    should(client.state).equal('unreachable');
  });

  it("verifies a host name against the certificate in 'ca' mode", async () => {
    const client = harness.client({
      host: 'localhost',
      tls: { mode: 'ca', ca: harness.simulator.certificatePem },
    });
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
  });

  it("accepts the self-signed device certificate in 'insecure' mode (the default)", async () => {
    const client = harness.client({ tls: undefined });
    should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
  });
});

describe('api/tls: readCertificateFingerprint', () => {
  const harness = useHarness();

  it('reads the fingerprint the device presents, without logging in', async () => {
    const certificate = await readCertificateFingerprint('127.0.0.1', harness.simulator.port, 2000);
    should(certificate.fingerprint256).equal(harness.simulator.fingerprint256);
    should(certificate.subject).equal('conference-audio-simulator');
    should(certificate.validTo).be.a.String();
    should(harness.simulator.requests).have.length(0);
  });

  it('reports UNREACHABLE when nothing listens', async () => {
    const { port } = harness.simulator;
    await harness.simulator.close();
    await harness.failure(readCertificateFingerprint('127.0.0.1', port, 2000), 'UNREACHABLE');
  });

  it('reports TIMEOUT when the handshake never comes', async () => {
    const sockets = new Set<Socket>();
    // Accepts connections and never says a word.
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      await harness.failure(readCertificateFingerprint('127.0.0.1', port, 100), 'TIMEOUT');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses a bad host with INVALID_CONFIG', async () => {
    await harness.failure(readCertificateFingerprint('https://10.0.0.5'), 'INVALID_CONFIG');
  });
});

describe('api/client: a device at an IPv6 address', () => {
  let device: DeviceSimulator;

  before(async () => {
    device = await startSimulator({ host: '::1', passwords: { general: PASSWORD } });
  });

  after(async () => {
    await device.close();
  });

  it('connects to [::1] and verifies the certificate in ca mode', async () => {
    const client = new DeviceClient({
      host: '::1',
      port: device.port,
      account: 'general',
      password: PASSWORD,
      tls: { mode: 'ca', ca: device.certificatePem },
    });
    try {
      should(client.baseUrl).equal(`https://[::1]:${device.port}`);
      should((await client.request('GET', '/api/v1/audio')).statusCode).equal(200);
    } finally {
      await client.close();
    }
  });

  it('reads the certificate fingerprint of [::1]', async () => {
    const certificate = await readCertificateFingerprint('[::1]', device.port, 2000);
    should(certificate.fingerprint256).equal(device.fingerprint256);
  });
});
