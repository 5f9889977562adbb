import { normaliseFingerprint } from '../../api/tls';
import type { Account, DeviceClientOptions, TlsOptions } from '../../api/types';
import { buildBaseUrl } from '../../api/url';
import { DeviceError } from '../../errors';

/**
 * The config node's properties as the editor stores them (numbers may arrive
 * as strings from older flows or hand-edited JSON). Turned into client
 * options here, with the same checks the editor's validators make, so a flow
 * imported without the editor still gets a clear INVALID_CONFIG.
 */
export interface DeviceSettingsInput {
  host?: unknown;
  port?: unknown;
  account?: unknown;
  clientId?: unknown;
  vendor?: unknown;
  tls?: unknown;
  fingerprint?: unknown;
  ca?: unknown;
  timeout?: unknown;
}

export const DEFAULT_PORT = 443;
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_CLIENT_ID = 'node-red';
export const DEFAULT_VENDOR = 'Vendor';
/** Trust on first use: works with a device's self-signed certificate without any setup. */
export const DEFAULT_TLS_MODE = 'pin';

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function numberFrom(value: unknown, fallback: number, field: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(parsed)) throw new DeviceError('INVALID_CONFIG', `${field} must be a number`);
  return parsed;
}

export function readPort(value: unknown): number {
  const port = numberFrom(value, DEFAULT_PORT, 'Port');
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new DeviceError(
      'INVALID_CONFIG',
      `Port must be a whole number from 1 to 65535, got ${String(value)}`,
    );
  }
  return port;
}

export function readTimeoutMs(value: unknown): number {
  const seconds = numberFrom(value, DEFAULT_TIMEOUT_SECONDS, 'Timeout');
  if (seconds <= 0) throw new DeviceError('INVALID_CONFIG', 'Timeout must be more than 0 seconds');
  return Math.round(seconds * 1000);
}

function readAccount(value: unknown): Account {
  const account = text(value) || 'general';
  if (account !== 'general' && account !== 'admin') {
    throw new DeviceError('INVALID_CONFIG', `Account must be "general" or "admin", got "${account}"`);
  }
  return account;
}

function readTls(input: DeviceSettingsInput): TlsOptions {
  const mode = text(input.tls) || DEFAULT_TLS_MODE;
  if (mode === 'insecure') return { mode };
  if (mode === 'ca') {
    const ca = typeof input.ca === 'string' ? input.ca.trim() : '';
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw new DeviceError(
        'INVALID_CONFIG',
        'TLS mode "ca" needs a PEM certificate (-----BEGIN CERTIFICATE-----)',
      );
    }
    return { mode, ca };
  }
  if (mode === 'pin') {
    const fingerprint = text(input.fingerprint);
    return fingerprint === '' ? { mode } : { mode, fingerprint: normaliseFingerprint(fingerprint) };
  }
  throw new DeviceError('INVALID_CONFIG', `TLS mode must be "pin", "ca" or "insecure", got "${mode}"`);
}

/** Everything but the password; throws DeviceError INVALID_CONFIG with a clear message. */
export function readDeviceSettings(input: DeviceSettingsInput): Omit<DeviceClientOptions, 'password'> {
  const host = text(input.host);
  if (host === '')
    throw new DeviceError('INVALID_CONFIG', 'Host is empty: enter the device IP address or host name');
  const port = readPort(input.port);
  buildBaseUrl(host, port);
  return {
    host,
    port,
    account: readAccount(input.account),
    clientId: text(input.clientId) || DEFAULT_CLIENT_ID,
    vendor: text(input.vendor) || DEFAULT_VENDOR,
    tls: readTls(input),
    timeoutMs: readTimeoutMs(input.timeout),
  };
}
