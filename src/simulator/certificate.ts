import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { generate as GenerateCertificate } from 'selfsigned';

export interface SimulatorCertificate {
  key: string;
  cert: string;
  /** As Node prints it: `AB:CD:...`, upper case. */
  fingerprint256: string;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `selfsigned` is an optional peer dependency: only the simulator needs it, and it is about 8 MB with
 * its own dependencies, which someone who installs the nodes into Node-RED should not carry. Loaded on
 * the simulator's first start, with a message that says how to get it when it is missing.
 */
async function loadCertificateGenerator(): Promise<typeof GenerateCertificate> {
  try {
    const selfsigned: { generate: typeof GenerateCertificate } = await import('selfsigned');
    return selfsigned.generate;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw Object.assign(
      new Error(
        'The device simulator needs the package "selfsigned" to make its certificate, and it is not ' +
          'installed. Run `npm install selfsigned@5` in the folder where this package is installed (for ' +
          'Node-RED usually ~/.node-red), or pass your own certificate in the tls option. The Node-RED ' +
          'nodes do not need it.',
      ),
      { code: 'SIMULATOR_NEEDS_SELFSIGNED' },
    );
  }
}

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
  const generate = await loadCertificateGenerator();
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
