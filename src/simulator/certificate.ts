import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface SimulatorCertificate {
  key: string;
  cert: string;
  /** As Node prints it: `AB:CD:...`, upper case. */
  fingerprint256: string;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A self-signed certificate like a device's, but valid for the loopback names and the listen host too,
 * so a client can also verify it in `ca` mode.
 */
export async function createCertificate(host: string): Promise<SimulatorCertificate> {
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  const bareHost = host.replace(/^\[(.*)\]$/, '$1');
  const isUnspecified = bareHost === '0.0.0.0' || bareHost === '::';
  if (!isUnspecified && bareHost !== 'localhost' && bareHost !== '127.0.0.1' && bareHost !== '::1') {
    altNames.push(isIP(bareHost) ? { type: 7, ip: bareHost } : { type: 2, value: bareHost });
  }
  // Back-dated a day so a client whose clock runs slightly behind still accepts it.
  const notBeforeDate = new Date(Date.now() - ONE_DAY_MS);
  const notAfterDate = new Date(notBeforeDate.getTime() + 366 * ONE_DAY_MS);
  const pems = await generate([{ name: 'commonName', value: 'conference-audio-simulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint256: fingerprintOf(pems.cert) };
}

export function fingerprintOf(certificatePem: string): string {
  return new X509Certificate(certificatePem).fingerprint256;
}
