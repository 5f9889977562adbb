import { isIP } from 'node:net';
import {
  createSecureContext,
  type PeerCertificate,
  type SecureContext,
  type TLSSocket,
  connect as tlsConnect,
} from 'node:tls';
import { buildConnector } from 'undici';
import { DeviceError } from '../errors';
import { errorFromTransport } from './errors';
import { checkFingerprint, timeoutText } from './settings-rules';
import { buildBaseUrl, formatHost, validatePort } from './url';

/**
 * A SHA-256 fingerprint as Node prints it (`AB:CD:...`, uppercase), from that form or plain hex in any case.
 * Throws INVALID_CONFIG unless it is exactly 32 bytes of hex.
 */
export function normaliseFingerprint(value: string): string {
  const checked = checkFingerprint(value);
  if (!checked.ok) throw new DeviceError('INVALID_CONFIG', checked.problem.message);
  return checked.value;
}

function subjectName(certificate: PeerCertificate): string | undefined {
  const subject: unknown = certificate.subject;
  if (typeof subject !== 'object' || subject === null) return undefined;
  const commonName = (subject as Record<string, unknown>).CN;
  if (typeof commonName === 'string') return commonName;
  if (Array.isArray(commonName)) return commonName.join(', ');
  const parts = Object.entries(subject).map(([key, part]) => `${key}=${String(part)}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** The host to give `tls.connect`: IPv6 without brackets; SNI only for names (Node refuses IPs as servername). */
function tlsTarget(host: string): { host: string; servername?: string } {
  const urlHost = formatHost(host);
  const bare = urlHost.startsWith('[') ? urlHost.slice(1, -1) : urlHost;
  return isIP(bare) === 0 ? { host: bare, servername: bare } : { host: bare };
}

/**
 * Connects once, reads the device's leaf certificate and closes, without logging in: lets a user see
 * the fingerprint to pin before trusting it.
 */
export function readCertificateFingerprint(
  host: string,
  port?: number,
  timeoutMs = 10000,
): Promise<{ fingerprint256: string; subject?: string; validTo?: string }> {
  let baseUrl: string;
  let target: { host: string; servername?: string };
  let validPort: number;
  try {
    baseUrl = buildBaseUrl(host, port);
    target = tlsTarget(host);
    validPort = validatePort(port);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket: TLSSocket = tlsConnect({ ...target, port: validPort, rejectUnauthorized: false });
    const finish = (
      error: DeviceError | undefined,
      result?: { fingerprint256: string; subject?: string; validTo?: string },
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else if (result !== undefined) resolve(result);
    };
    const timer = setTimeout(() => {
      finish(
        new DeviceError(
          'TIMEOUT',
          `The device at ${baseUrl} did not complete a TLS handshake within ${timeoutText(timeoutMs)}`,
        ),
      );
    }, timeoutMs);
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate();
      if (!certificate || typeof certificate.fingerprint256 !== 'string') {
        finish(new DeviceError('TLS', `The device at ${baseUrl} presented no certificate`));
        return;
      }
      const subject = subjectName(certificate);
      finish(undefined, {
        fingerprint256: certificate.fingerprint256,
        ...(subject === undefined ? {} : { subject }),
        ...(typeof certificate.valid_to === 'string' ? { validTo: certificate.valid_to } : {}),
      });
    });
    socket.once('error', (error) => finish(errorFromTransport(error, baseUrl, timeoutMs, [])));
  });
}

let unverifiedContext: SecureContext | undefined;

/**
 * One TLS context for every connection whose certificate chain is not verified (a pin, or no check):
 * Node makes a new one for each connection otherwise, about a fifth of a handshake's CPU, and a fleet of
 * devices makes a connection per device for every resync. It holds no certificate or key and keeps no
 * sessions of its own: a session is resumed only when undici hands one in, which it never does for a
 * pinned connection (its session cache is off there, as the pin needs the certificate).
 */
export function unverifiedSecureContext(): SecureContext {
  unverifiedContext ??= createSecureContext();
  return unverifiedContext;
}

export interface PinningConnectorOptions {
  /** Normalised expected fingerprint; undefined means trust on first use. */
  fingerprint: string | undefined;
  timeoutMs: number;
  baseUrl: string;
  /** Called once when trust on first use pins a certificate. */
  onPinned: (fingerprint256: string) => void;
  /**
   * Trust on first use asks it before it pins a certificate: it answers the fingerprint to pin, or throws
   * a DeviceError to refuse the connection (the next one asks again). Without it, the first one seen.
   */
  trustFirstUse?: (fingerprint256: string) => string;
  /** The device showed another certificate than the pinned one (the connection is refused). */
  onMismatch?: (expected: string, seen: string) => void;
}

/**
 * An undici connector that accepts the connection only when the leaf certificate has the pinned
 * SHA-256 fingerprint. The chain is not verified (devices are self-signed), so the pin is the whole
 * check: it runs on every new socket and sessions are never resumed (a resumed session has no peer
 * certificate to compare).
 */
export function createPinningConnector(options: PinningConnectorOptions): {
  connector: buildConnector.connector;
  pinned: () => string | undefined;
} {
  let expected = options.fingerprint;
  const base = buildConnector({
    rejectUnauthorized: false,
    maxCachedSessions: 0,
    timeout: options.timeoutMs,
    secureContext: unverifiedSecureContext(),
  });
  const connector: buildConnector.connector = (connectOptions, callback) => {
    base(connectOptions, (error, socket) => {
      if (error !== null || socket === null) {
        callback(error ?? new Error('TLS connection failed'), null);
        return;
      }
      const seen = 'getPeerCertificate' in socket ? socket.getPeerCertificate().fingerprint256 : undefined;
      if (typeof seen !== 'string' || seen.length === 0) {
        socket.destroy();
        callback(
          new DeviceError(
            'TLS',
            `The device at ${options.baseUrl} presented no certificate to compare with the pin`,
          ),
          null,
        );
        return;
      }
      if (expected === undefined) {
        let trusted: string;
        try {
          trusted = options.trustFirstUse?.(seen) ?? seen;
        } catch (error) {
          socket.destroy();
          callback(
            error instanceof DeviceError
              ? error
              : new DeviceError('TLS', `The certificate of the device at ${options.baseUrl} was not trusted`),
            null,
          );
          return;
        }
        expected = trusted;
        if (trusted === seen) options.onPinned(seen);
      }
      if (seen !== expected) {
        socket.destroy();
        options.onMismatch?.(expected, seen);
        callback(
          new DeviceError(
            'TLS',
            `Certificate fingerprint mismatch for the device at ${options.baseUrl}: expected ${expected}, seen ${seen}. ` +
              'If the device certificate was renewed on purpose, update the fingerprint; otherwise something else answers at this address.',
          ),
          null,
        );
        return;
      }
      callback(null, socket);
    });
  };
  return { connector, pinned: () => expected };
}
