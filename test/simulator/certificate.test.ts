import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { connect, type PeerCertificate } from 'node:tls';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';

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
