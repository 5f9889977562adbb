/**
 * A device that misbehaves in ways the simulator does not offer (the simulator is a well-behaved device
 * with faults for requests): error answers to a stream whose body never comes, a compressed stream
 * nobody asked for, keepalive bytes without events, a login that works and a token that never does.
 * The test says how it answers each request; logins get a fresh token unless the test answers them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { DEVICE_PATHS, DeviceClient, type DeviceClientOptions } from '../../src/api';
import { createCertificate } from '../../src/simulator/certificate';
import { claimDevicePort } from '../support/device-ports';
import { PASSWORD } from './helpers';

/** Answers one request; returns false to leave it to the default (logins get a token, the rest 404). */
export type HostileAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

let sharedCertificate: Promise<{ key: string; cert: string }> | undefined;

export class HostileDevice {
  /** Every request's path, in order. */
  readonly paths: string[] = [];
  logins = 0;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #clients: DeviceClient[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(server: Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(answer: HostileAnswer): Promise<HostileDevice> {
    sharedCertificate ??= createCertificate('127.0.0.1').then(({ key, cert }) => ({ key, cert }));
    const server = createServer(await sharedCertificate);
    const device = new HostileDevice(server);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const path = request.url ?? '';
      device.paths.push(path);
      if (answer(request, response)) return;
      if (path === DEVICE_PATHS.login) {
        device.logins += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ authParameters: `token-${device.logins}` }));
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ message: 'Not found' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Its clients' stream connections count against the port's budget: simulators after it keep off it.
    claimDevicePort(device.port);
    return device;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Requests for this path (query left out). */
  count(path: string): number {
    return this.paths.filter((seen) => seen.split('?', 1)[0] === path).length;
  }

  /** A client of this device, closed with it. */
  client(overrides: Partial<DeviceClientOptions> = {}): DeviceClient {
    const client = new DeviceClient({
      host: '127.0.0.1',
      port: this.port,
      account: 'general',
      password: PASSWORD,
      tls: { mode: 'insecure' },
      timeoutMs: 500,
      ...overrides,
    });
    this.#clients.push(client);
    return client;
  }

  /** Runs `write` every `ms` until the device closes (keepalive bytes, say). */
  every(ms: number, write: () => void): void {
    this.#timers.add(setInterval(write, ms));
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.all(this.#clients.splice(0).map((client) => client.close()));
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
