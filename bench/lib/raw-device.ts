/**
 * The baselines of the device-facing benchmarks: what a careful user writes with undici alone (a pinned
 * TLS pool, one login, `GET /api/v1/room/zones`, `JSON.parse`), and a way to read the simulated
 * device's counters. The pool is set up as `DeviceClient`'s (src/api/client.ts): a `Pool` of 4 connections
 * with undici's keep-alive defaults and the same timeouts, the chain not verified but the certificate's
 * SHA-256 fingerprint compared on every new socket, no TLS session reuse.
 */
import { Agent, buildConnector, Pool, request } from 'undici';

export const BENCH_PASSWORD = 'bench-general-password';
export const ZONES_PATH = '/api/v1/room/zones';
const LOGIN_PATH = '/api/v1/auth/login';
const TIMEOUT_MS = 10_000;

/** The public example room of a model 410 (x -8382..8382, y 0..10660 mm) cut into 4 x 2 zones: a full device. */
export function benchZones(): unknown[] {
  const columns = [-8382, -4191, 0, 4191, 8382];
  const rows = [0, 5330, 10660];
  const zones: unknown[] = [];
  for (let row = 0; row < 2; row++) {
    for (let column = 0; column < 4; column++) {
      const index = row * 4 + column;
      zones.push({
        types: ['Switching'],
        geometry: {
          point1: { x: columns[column], y: rows[row] },
          point2: { x: columns[column + 1], y: rows[row + 1] },
        },
        label: `Seat group ${index + 1}`,
        id: `zone-${index + 1}`,
      });
    }
  }
  return zones;
}

/** A pool to one device like the package's, accepting only the certificate with this fingerprint. */
export function pinnedPool(url: string, fingerprint256: string): Pool {
  const base = buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0, timeout: TIMEOUT_MS });
  const connect: buildConnector.connector = (options, callback) => {
    base(options, (error, socket) => {
      if (error !== null || socket === null) {
        callback(error ?? new Error('TLS connection failed'), null);
        return;
      }
      const seen = 'getPeerCertificate' in socket ? socket.getPeerCertificate().fingerprint256 : undefined;
      if (seen !== fingerprint256) {
        socket.destroy();
        callback(new Error(`certificate fingerprint ${String(seen)} is not the pinned one`), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Pool(url, {
    connect,
    connections: 4,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
}

/** The two client headers every device request carries; `bench-raw` keeps the raw side's rate window apart. */
const CLIENT_HEADERS = { 'Vendor-Client-Id': 'bench-raw', 'Vendor-Client-Version': '0.1.0' };

export async function rawLogin(pool: Pool, password = BENCH_PASSWORD): Promise<string> {
  const response = await pool.request({
    method: 'POST',
    path: LOGIN_PATH,
    headers: { ...CLIENT_HEADERS, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'general', password }),
  });
  const body = JSON.parse(await response.body.text()) as { authParameters?: unknown };
  if (response.statusCode !== 200 || typeof body.authParameters !== 'string') {
    throw new Error(`raw login answered HTTP ${response.statusCode}`);
  }
  return body.authParameters;
}

/** One zones read: the parsed `zones` array. */
export async function rawReadZones(pool: Pool, token: string): Promise<unknown[]> {
  const response = await pool.request({
    method: 'GET',
    path: ZONES_PATH,
    headers: { ...CLIENT_HEADERS, accept: 'application/json', authorization: `Vendor ${token}` },
  });
  const body = JSON.parse(await response.body.text()) as { zones?: unknown };
  if (response.statusCode !== 200 || !Array.isArray(body.zones)) {
    throw new Error(`raw zones read answered HTTP ${response.statusCode}`);
  }
  return body.zones;
}

export interface DeviceCounts {
  /** Logins answered 200. */
  logins: number;
  /** Requests to `GET /api/v1/room/zones`. */
  zoneReads: number;
  /** Requests answered "too many requests": must stay 0, or the device, not the code, was measured. */
  rateLimited: number;
}

/** The simulators' own counters (`GET /_simulator/state`), summed. */
export async function deviceCounts(urls: readonly string[]): Promise<DeviceCounts> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    const total: DeviceCounts = { logins: 0, zoneReads: 0, rateLimited: 0 };
    for (const url of urls) {
      const response = await request(`${url}/_simulator/state`, { dispatcher: agent });
      const state = (await response.body.json()) as {
        counters: { logins: number; rateLimited: number; requestsByPath: Record<string, number> };
      };
      total.logins += state.counters.logins;
      total.zoneReads += state.counters.requestsByPath[ZONES_PATH] ?? 0;
      total.rateLimited += state.counters.rateLimited;
    }
    return total;
  } finally {
    await agent.close();
  }
}
