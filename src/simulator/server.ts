import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIP } from 'node:net';
import { handleControl } from './controls';
import { sendBody } from './http';
import type { DeviceParts } from './parts';
import { sessionRoutes } from './resources/session';
import { streamRoutes } from './resources/stream-routes';
import { pathOf, Router } from './router';
import type { SimulatorControls } from './types';

/** The device's HTTPS server: every request goes to the simulator's controls or through the router. */
export class SimulatorServer {
  readonly server: Server;
  readonly router: Router;
  readonly #pendingTimers = new Set<NodeJS.Timeout>();
  #closing: Promise<void> | undefined;
  #port = 0;

  constructor(
    readonly parts: DeviceParts,
    readonly host: string,
    tls: { key: string; cert: string },
    controls: SimulatorControls,
  ) {
    const { settings, log } = parts;
    const context = settings.context;
    const server = this;
    this.router = new Router({
      settings,
      accounts: parts.accounts,
      log,
      faults: parts.faults,
      rateLimiter: parts.rateLimiter,
      get zones() {
        return parts.room.zones;
      },
      get closing() {
        return server.#closing !== undefined;
      },
      delay: (ms) => this.#delay(ms),
    });
    const routes = this.router.routes;
    Object.assign(
      routes,
      sessionRoutes(context, parts.accounts, log, () => routes),
      streamRoutes(parts.streams, parts.streamLimiter, log, settings.vendor),
      parts.room.routes(),
      parts.profiles.routes(),
      parts.audio.routes(),
      parts.calibration.routes(),
      parts.hardware.routes(),
      parts.switcher.routes(),
      parts.network.routes(),
    );
    this.router.compile();
    this.server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
      log.countHttpRequest();
      this.#handle(request, response, controls).catch(() => {
        if (!response.headersSent) sendBody(response, 500, '');
        else response.destroy();
      });
    });
    this.server.on('connection', () => log.countConnection());
  }

  get port(): number {
    return this.#port;
  }

  /** `https://127.0.0.1:PORT`; an unspecified listen address is shown as loopback, an IPv6 one in brackets. */
  get url(): string {
    const bare = this.host.replace(/^\[(.*)\]$/, '$1');
    const shown = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
    return `https://${isIP(shown) === 6 ? `[${shown}]` : shown}:${this.#port}`;
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, this.host.replace(/^\[(.*)\]$/, '$1'), () => {
        this.server.off('error', onError);
        const address = this.server.address();
        this.#port = typeof address === 'object' && address !== null ? address.port : port;
        resolve();
      });
    });
  }

  /** Closes the server and every open socket, and drops answers still waiting on a latency fault. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      for (const timer of this.#pendingTimers) clearTimeout(timer);
      this.#pendingTimers.clear();
      this.parts.calibration.stop();
      this.parts.streams.close();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.#closing;
  }

  async #handle(
    request: IncomingMessage,
    response: ServerResponse,
    controls: SimulatorControls,
  ): Promise<void> {
    const path = pathOf(request.url);
    if (path === '/_simulator' || path.startsWith('/_simulator/'))
      await handleControl(controls, request, response, path);
    else await this.router.handle(request, response, path);
  }

  #delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pendingTimers.delete(timer);
        resolve();
      }, ms);
      this.#pendingTimers.add(timer);
    });
  }
}
