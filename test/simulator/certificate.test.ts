import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import should from 'should';
import { type DeviceSimulator, keptCertificate, startSimulator } from '../../src/simulator';
import { CERTIFICATE_FILE, KEY_FILE } from '../../src/simulator/certificate-store';

function peerCertificate(
  port: number,
  options: { ca?: string; host?: string },
): Promise<{ certificate: PeerCertificate; authorized: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      {
        host: options.host ?? '127.0.0.1',
        port,
        ...(options.ca === undefined ? { rejectUnauthorized: false } : { ca: options.ca }),
      },
      () => {
        const result = { certificate: socket.getPeerCertificate(), authorized: socket.authorized };
        socket.end();
        resolve(result);
      },
    );
    socket.once('error', reject);
  });
}

describe('simulator: certificate', () => {
  let simulator: DeviceSimulator;

  before(async () => {
    simulator = await startSimulator();
  });

  after(async () => {
    await simulator.close();
  });

  it('listens on 127.0.0.1 with a free port and says so in its url', () => {
    simulator.host.should.equal('127.0.0.1');
    simulator.port.should.be.above(0);
    simulator.url.should.equal(`https://127.0.0.1:${simulator.port}`);
  });

  it('reports the SHA-256 fingerprint a TLS client sees, in upper-case colon form', async () => {
    const { certificate } = await peerCertificate(simulator.port, {});
    simulator.fingerprint256.should.match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    certificate.fingerprint256.should.equal(simulator.fingerprint256);
  });

  it('reports the PEM of that same certificate', () => {
    new X509Certificate(simulator.certificatePem).fingerprint256.should.equal(simulator.fingerprint256);
  });

  it('is self-signed and signed with SHA-256', () => {
    const certificate = new X509Certificate(simulator.certificatePem);
    certificate.issuer.should.equal(certificate.subject);
    certificate.verify(certificate.publicKey).should.be.true();
    const text = execFileSync('openssl', ['x509', '-noout', '-text'], {
      input: simulator.certificatePem,
    }).toString();
    text.should.match(/Signature Algorithm: ecdsa-with-SHA256/);
  });

  it('verifies when a client trusts its PEM as the CA', async () => {
    const { authorized } = await peerCertificate(simulator.port, { ca: simulator.certificatePem });
    authorized.should.be.true();
  });

  it('is refused by a client that trusts only the usual CAs', async () => {
    await should(
      new Promise((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: simulator.port }, () => {
          socket.end();
          resolve(undefined);
        });
        socket.once('error', reject);
      }),
    ).be.rejectedWith({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('makes a new certificate at every start', async () => {
    const other = await startSimulator();
    try {
      other.fingerprint256.should.not.equal(simulator.fingerprint256);
    } finally {
      await other.close();
    }
  });

  it('keeps a given key and certificate, so a pinned fingerprint survives a restart', async () => {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'kept' }], {
      keyType: 'ec',
      algorithm: 'sha256',
    });
    const kept = await startSimulator({ tls: { key: pems.private, cert: pems.cert } });
    try {
      const { certificate } = await peerCertificate(kept.port, {});
      certificate.fingerprint256.should.equal(kept.fingerprint256);
      kept.fingerprint256.should.equal(new X509Certificate(pems.cert).fingerprint256);
    } finally {
      await kept.close();
    }
  });
});

describe('simulator: a certificate kept in a folder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'simulator-kept-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('makes a new one when the kept one has expired, and says so', async () => {
    const first = await keptCertificate(dir, '127.0.0.1');
    const yearsLater = new Date(Date.now() + 2 * 366 * 24 * 60 * 60 * 1000);
    const next = await keptCertificate(dir, '127.0.0.1', { now: yearsLater });
    should(next.origin).equal('new');
    should(next.reason).match(/expired/);
    should(next.certificate.fingerprint256).not.equal(first.certificate.fingerprint256);
  });

  it('refuses a key without its certificate, naming the missing file', async () => {
    await keptCertificate(dir, '127.0.0.1');
    await rm(join(dir, CERTIFICATE_FILE));
    await should(keptCertificate(dir, '127.0.0.1')).be.rejectedWith(/simulator-cert\.pem is missing/);
  });

  it('refuses a certificate kept with another key', async () => {
    await keptCertificate(dir, '127.0.0.1');
    const other = await mkdtemp(join(tmpdir(), 'simulator-other-'));
    try {
      await keptCertificate(other, '127.0.0.1');
      await writeFile(join(dir, KEY_FILE), await readFile(join(other, KEY_FILE), 'utf8'));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    await should(keptCertificate(dir, '127.0.0.1')).be.rejectedWith(/is not the key of/);
  });
});
