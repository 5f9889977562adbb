import type { NodeAPI } from 'node-red';
import { DeviceClient, readCertificateFingerprint } from '../../api';
import {
  clientSettingsOf,
  type DeviceSettingsInput,
  deviceSettingsFromProperties,
  portFromProperty,
  type ResolvedClientSettings,
  timeoutMsFromProperty,
} from '../../api/settings';
import { checkDeviceProperty, DEVICE_PROPERTIES, envReferenceName } from '../../api/settings-rules';
import { DeviceError, isDeviceError } from '../../errors';
import { readRoomZones, renderZoneMap, ZONE_MAP_WORDS, type ZoneMapWords } from '../../zones';
import type { ZoneReadResult } from '../../zones/types';
import { findDevice } from '../glue/device';
import { UNCHANGED_PASSWORD } from '../settings/node-settings';

export const ADMIN_PERMISSION = 'conference-audio-device.write';

/** Where a deployed config node points, to decide whether its stored password may be used. */
export interface StoredDeviceAddress {
  host: string;
  port: number;
}

interface AdminError {
  ok: false;
  error: { code: string; message: string };
}

function failure(RED: NodeAPI, error: unknown): AdminError {
  if (isDeviceError(error)) return { ok: false, error: { code: error.code, message: error.message } };
  // Anything else is a bug of ours: log where it happened (the answer promises it), and answer without
  // echoing an object that could hold request data.
  RED.log.error(
    `conference audio editor endpoint failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return { ok: false, error: { code: 'ERROR', message: 'Unexpected error, see the Node-RED log' } };
}

function bodyOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function storedAddressOf(node: unknown): StoredDeviceAddress | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const address = (node as { deviceAddress?: unknown }).deviceAddress;
  if (typeof address !== 'object' || address === null) return undefined;
  const { host, port } = address as { host?: unknown; port?: unknown };
  return typeof host === 'string' && typeof port === 'number' ? { host, port } : undefined;
}

/**
 * The password for a throwaway client. An unchanged field means "the stored
 * one of that config node", which is only sent to the address it was saved
 * for: a dialog whose host was edited must have its password typed again.
 */
function passwordFor(
  RED: NodeAPI,
  body: Record<string, unknown>,
  settings: { host: string; port?: number },
): string {
  const given = body.password;
  if (given !== UNCHANGED_PASSWORD) return typeof given === 'string' ? given : '';
  const id = typeof body.id === 'string' ? body.id : '';
  const stored = storedAddressOf(id === '' ? undefined : RED.nodes.getNode(id));
  if (stored === undefined) {
    throw new DeviceError(
      'INVALID_INPUT',
      'No stored password for this device yet: deploy it or type the password',
    );
  }
  if (stored.host !== settings.host || stored.port !== settings.port) {
    throw new DeviceError(
      'INVALID_INPUT',
      'The stored password is only sent to the address it was saved for: type the password to test a new address',
    );
  }
  const credentials = bodyOf(RED.nodes.getCredentials(id));
  return typeof credentials.password === 'string' ? credentials.password : '';
}

/**
 * The editor's buttons try the values in the dialog. A `${VAR}` there is Node-RED's to fill in when the
 * flow is deployed; filling it in here would show environment values to anyone allowed to press a
 * button, so it is refused with what to do instead.
 */
function refuseEnvironmentReferences(body: Record<string, unknown>): void {
  // The password is left out: whatever was typed there is never repeated.
  for (const property of DEVICE_PROPERTIES) {
    const variable = envReferenceName(body[property]);
    if (variable === undefined) continue;
    throw new DeviceError(
      'INVALID_INPUT',
      `${property} is \${${variable}}, which Node-RED fills in when the flow is deployed: the editor's buttons try the values in the dialog, so enter the value itself to try it, or deploy and watch the node status`,
    );
  }
}

function throwawayOptions(RED: NodeAPI, body: Record<string, unknown>): ResolvedClientSettings {
  refuseEnvironmentReferences(body);
  const settings = deviceSettingsFromProperties(body as DeviceSettingsInput);
  return clientSettingsOf(settings, { password: passwordFor(RED, body, settings) });
}

async function withThrowawayClient<T>(
  options: ResolvedClientSettings,
  use: (client: DeviceClient) => Promise<T>,
) {
  const client = new DeviceClient(options);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

export interface TestConnectionAnswer {
  ok: true;
  zonesSupported: boolean;
  count: number;
  source?: string;
  warnings: string[];
  fingerprint?: string;
  /** The device's own vendor word, when it is not the one in the dialog: the dialog offers to fill it in. */
  vendor?: { word: string; configured: string };
}

async function testConnection(RED: NodeAPI, raw: unknown): Promise<TestConnectionAnswer | AdminError> {
  try {
    const options = throwawayOptions(RED, bodyOf(raw));
    let pinned: string | undefined;
    let vendor: { word: string; configured: string } | undefined;
    return await withThrowawayClient(options, async (client) => {
      client.on('pinned', (fingerprint: string) => {
        pinned = fingerprint;
      });
      client.on('vendor', (word: string, configured: string) => {
        vendor = { word, configured };
      });
      const learned = () => ({
        ...(pinned !== undefined ? { fingerprint: pinned } : {}),
        ...(vendor !== undefined ? { vendor } : {}),
      });
      try {
        const read = await readRoomZones(client);
        return {
          ok: true as const,
          zonesSupported: true,
          count: read.zones.length,
          source: read.source,
          warnings: read.warnings.map((warning) => warning.code),
          ...learned(),
        };
      } catch (error) {
        // The login worked (the device answered the zone request): a model without zones is a success.
        if (isDeviceError(error) && error.code === 'UNSUPPORTED_MODEL') {
          return {
            ok: true as const,
            zonesSupported: false,
            count: 0,
            warnings: [],
            ...learned(),
          };
        }
        throw error;
      }
    });
  } catch (error) {
    return failure(RED, error);
  }
}

async function readCertificate(RED: NodeAPI, raw: unknown) {
  try {
    const body = bodyOf(raw);
    refuseEnvironmentReferences(body);
    const hostProblem = checkDeviceProperty('host', body.host, { editing: false });
    if (hostProblem !== undefined) throw new DeviceError('INVALID_CONFIG', hostProblem.message);
    const certificate = await readCertificateFingerprint(
      String(body.host).trim(),
      portFromProperty(body.port),
      timeoutMsFromProperty(body.timeout),
    );
    return { ok: true as const, ...certificate };
  } catch (error) {
    return failure(RED, error);
  }
}

/** Longer than any translation of the map's words; a longer text is not drawn. */
const MAX_MAP_WORD_LENGTH = 100;

/** The map's words in the editor's language, as the dialog sends them: known words, short texts only. */
function mapWordsOf(value: unknown): Partial<ZoneMapWords> {
  const given = bodyOf(value);
  const words: Partial<ZoneMapWords> = {};
  for (const key of Object.keys(ZONE_MAP_WORDS) as Array<keyof ZoneMapWords>) {
    const word = given[key];
    if (typeof word === 'string' && word.length <= MAX_MAP_WORD_LENGTH) words[key] = word;
  }
  return words;
}

async function zoneMap(RED: NodeAPI, raw: unknown) {
  try {
    const body = bodyOf(raw);
    let read: ZoneReadResult;
    if (typeof body.host === 'string' && body.host.trim() !== '') {
      read = await withThrowawayClient(throwawayOptions(RED, body), (client) => readRoomZones(client));
    } else {
      const device = findDevice(RED, body.device ?? body.id);
      if (device === undefined) {
        throw new DeviceError(
          'INVALID_CONFIG',
          'The device config node is not deployed yet: deploy it first',
        );
      }
      read = await device.connection().zones.read();
    }
    return {
      ok: true as const,
      svg: renderZoneMap(read.zones, { words: mapWordsOf(body.words) }),
      count: read.zones.length,
      source: read.source,
      warnings: read.warnings.map((warning) => ({ code: warning.code, message: warning.message })),
    };
  } catch (error) {
    return failure(RED, error);
  }
}

/**
 * Which certificate a deployed config node trusts (configured, or learned on first use) and whether the
 * device last showed another one: the dialog shows it and offers to accept the new one. Fingerprints
 * are not secrets.
 */
async function certificateTrust(RED: NodeAPI, body: unknown): Promise<unknown> {
  try {
    const id = bodyOf(body).id;
    const node: unknown = typeof id === 'string' && id !== '' ? RED.nodes.getNode(id) : undefined;
    const trust =
      typeof node === 'object' && node !== null
        ? (node as { certificateTrust?: () => object }).certificateTrust
        : undefined;
    if (typeof trust !== 'function') {
      throw new DeviceError(
        'INVALID_INPUT',
        'This device is not deployed yet: deploy it to see which certificate it trusts',
      );
    }
    return { ok: true, ...trust.call(node) };
  } catch (error) {
    return failure(RED, error);
  }
}

/** The editor's buttons: test connection, read certificate, show the zone map; the trusted certificate. */
export function registerAdminEndpoints(RED: NodeAPI): void {
  const allowed = RED.auth.needsPermission(ADMIN_PERMISSION);
  const routes: Record<string, (body: unknown) => Promise<unknown>> = {
    '/conference-audio/test-connection': (body) => testConnection(RED, body),
    '/conference-audio/certificate': (body) => readCertificate(RED, body),
    '/conference-audio/zone-map': (body) => zoneMap(RED, body),
    '/conference-audio/trusted-certificate': (body) => certificateTrust(RED, body),
  };
  for (const [route, answer] of Object.entries(routes)) {
    RED.httpAdmin.post(route, allowed, (req, res) => {
      // Each handler turns its own failures into {ok: false, error}; a rejection here is a bug of ours.
      answer(req.body).then(
        (result) => res.json(result),
        () => res.status(500).json({ ok: false, error: { code: 'ERROR', message: 'Unexpected error' } }),
      );
    });
  }
}
