import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCertificate, fingerprintOf, type SimulatorCertificate } from './certificate';

export const KEY_FILE = 'simulator-key.pem';
export const CERTIFICATE_FILE = 'simulator-cert.pem';

/** Only the user who runs the simulator may read its private key. */
const KEY_MODE = 0o600;
const CERTIFICATE_MODE = 0o644;
const DIR_MODE = 0o700;

/** A kept key or certificate that cannot be used as it is: the simulator does not start. */
export class CertificateStoreError extends Error {
  readonly code = 'SIMULATOR_CERTIFICATE_STORE';
}

export interface KeptCertificate {
  certificate: SimulatorCertificate;
  /** `kept`: read from the folder; `new`: made now and saved there. */
  origin: 'kept' | 'new';
  /** Why a new one was made: `none kept`, `asked for`, or that the kept one expired. */
  reason?: string;
  keyFile: string;
  certificateFile: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Writes beside the target and renames, so a stop halfway leaves the old file or the new, never half. */
async function writeWhole(file: string, text: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

function unusable(file: string, what: string): CertificateStoreError {
  return new CertificateStoreError(
    `${file} ${what}. Start with --new-certificate to replace the kept key and certificate (clients that pinned the old one must accept the new one).`,
  );
}

/** The kept pair, checked: both parse, and the key is the certificate's. */
async function readKept(keyFile: string, certificateFile: string): Promise<SimulatorCertificate> {
  const key = await readFile(keyFile, 'utf8');
  const cert = await readFile(certificateFile, 'utf8');
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(cert);
  } catch {
    throw unusable(certificateFile, 'is not a PEM certificate');
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw unusable(keyFile, 'is not a PEM private key');
  }
  if (!parsed.checkPrivateKey(privateKey)) throw unusable(keyFile, `is not the key of ${certificateFile}`);
  return { key, cert, fingerprint256: fingerprintOf(cert) };
}

/**
 * The simulator's certificate kept in `dir`, so that its fingerprint stays the same from one start to the
 * next and a client's pin keeps matching. A new one is made when none is kept, when `renew` asks for it,
 * or when the kept one has expired. A kept pair that is broken or half there is refused, never replaced
 * unasked: replacing it would change the fingerprint behind the user's back.
 */
export async function keptCertificate(
  dir: string,
  host: string,
  options: { renew?: boolean; now?: Date } = {},
): Promise<KeptCertificate> {
  const keyFile = join(dir, KEY_FILE);
  const certificateFile = join(dir, CERTIFICATE_FILE);
  const where = { keyFile, certificateFile };
  let reason = 'asked for';
  if (options.renew !== true) {
    const [hasKey, hasCertificate] = await Promise.all([exists(keyFile), exists(certificateFile)]);
    if (hasKey !== hasCertificate) {
      throw hasKey ? unusable(certificateFile, 'is missing') : unusable(keyFile, 'is missing');
    }
    reason = 'none kept';
    if (hasKey) {
      const kept = await readKept(keyFile, certificateFile);
      const validTo = new Date(new X509Certificate(kept.cert).validTo);
      if (validTo.getTime() > (options.now ?? new Date()).getTime()) {
        await chmod(keyFile, KEY_MODE);
        return { certificate: kept, origin: 'kept', ...where };
      }
      reason = `the kept one expired on ${validTo.toISOString()}`;
    }
  }
  const certificate = await createCertificate(host);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await writeWhole(keyFile, certificate.key, KEY_MODE);
  await writeWhole(certificateFile, certificate.cert, CERTIFICATE_MODE);
  return { certificate, origin: 'new', reason, ...where };
}
