import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Accounts } from './accounts';
import { type Exchange, type Route, type Routes, sendError } from './exchange';
import { answerWithFault } from './fault-answers';
import type { FaultSwitch } from './faults';
import type { SlidingWindowRateLimiter } from './rate-limiter';
import type { RequestLog } from './request-log';
import type { DeviceSettings } from './settings';
import type { RecordedRequest, SimulatorAccount } from './types';

const MAX_CLIENT_HEADER_LENGTH = 500;
const ROLE_RANK: Record<SimulatorAccount, number> = { general: 1, admin: 2 };
export const RATE_LIMITED_MESSAGE = 'Too many requests';

/** What the router asks the simulator for each request: the device's current settings and parts. */
export interface RouterDevice {
  /** How the device answers, read live: the controls change it between requests. */
  readonly settings: Pick<
    DeviceSettings,
    'vendor' | 'rateLimitStatus' | 'answerEncoding' | 'errorFormat' | 'writeAnswer'
  >;
  readonly accounts: Accounts;
  readonly log: RequestLog;
  readonly faults: FaultSwitch;
  readonly rateLimiter: SlidingWindowRateLimiter;
  readonly zones: unknown;
  readonly closing: boolean;
  delay(ms: number): Promise<void>;
}

interface PatternRoute {
  pattern: RegExp;
  names: string[];
  route: Route;
}

/**
 * Takes every device request through the device's checks, in its order: recorded, rate limited, a fault
 * if one is set, client headers, authorization, the route, its role and method.
 */
export class Router {
  /** Filled by the simulator before it listens; `compile` then learns the paths with `{name}` segments. */
  readonly routes: Routes = {};
  #patterns: PatternRoute[] = [];

  constructor(private readonly device: RouterDevice) {}

  compile(): void {
    this.#patterns = Object.entries(this.routes)
      .filter(([path]) => path.includes('{'))
      .map(([path, route]) => {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)');
        return { pattern: new RegExp(`^${source}$`), names, route };
      });
  }

  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const device = this.device;
    const record: RecordedRequest = {
      method: request.method ?? '',
      path,
      headers: flattenHeaders(request),
      status: 0,
      time: Date.now(),
    };
    device.log.record(record);
    const found = this.#find(path);
    const exchange: Exchange = {
      request,
      response,
      path,
      params: found?.params ?? {},
      record,
      account: null,
      encoding: device.settings.answerEncoding,
      errorFormat: device.settings.errorFormat,
      writeAnswer: device.settings.writeAnswer,
    };

    const clientId = headerValue(request, `${device.settings.vendor}-Client-Id`) ?? '';
    if (!device.rateLimiter.tryAcquire(`${request.socket.remoteAddress ?? ''}|${clientId}`)) {
      device.log.counters.rateLimited += 1;
      sendError(exchange, device.settings.rateLimitStatus, [RATE_LIMITED_MESSAGE]);
      return;
    }

    const fault = device.faults.take(path);
    if (fault !== null) {
      if (fault.kind !== 'latency') {
        answerWithFault(exchange, fault, device.zones, () => device.closing);
        return;
      }
      await device.delay(fault.ms);
      // The caller may have given up meanwhile; its socket is gone and there is nobody to answer.
      if (device.closing || request.socket.destroyed) return;
    }

    const headerProblems = this.#clientHeaderProblems(request);
    if (headerProblems.length > 0) {
      sendError(exchange, 400, headerProblems);
      return;
    }

    const route = found?.route;
    if (route === undefined || route.minimumRole !== null) {
      exchange.account = device.accounts.accountOf(request.headers.authorization, device.settings.vendor);
      if (exchange.account === null) {
        sendError(exchange, 401, ['Unauthorized']);
        return;
      }
    }
    if (route === undefined) {
      sendError(exchange, 404, ['Not found']);
      return;
    }
    const { account } = exchange;
    if (route.minimumRole !== null && account !== null && ROLE_RANK[account] < ROLE_RANK[route.minimumRole]) {
      sendError(exchange, 403, ['Forbidden']);
      return;
    }
    const method = request.method ?? '';
    const handler = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
    if (handler === undefined) {
      response.setHeader('Allow', Object.keys(route.methods).join(', '));
      sendError(exchange, 405, ['Method not allowed']);
      return;
    }
    await handler(exchange);
  }

  #find(path: string): { route: Route; params: Record<string, string> } | undefined {
    const exact = Object.hasOwn(this.routes, path) ? this.routes[path] : undefined;
    if (exact !== undefined && !path.includes('{')) return { route: exact, params: {} };
    for (const { pattern, names, route } of this.#patterns) {
      const match = pattern.exec(path);
      if (match === null) continue;
      const params: Record<string, string> = {};
      names.forEach((name, index) => {
        params[name] = safeDecode(match[index + 1] ?? '');
      });
      return { route, params };
    }
    return undefined;
  }

  #clientHeaderProblems(request: IncomingMessage): string[] {
    const problems: string[] = [];
    for (const name of [
      `${this.device.settings.vendor}-Client-Id`,
      `${this.device.settings.vendor}-Client-Version`,
    ]) {
      const value = headerValue(request, name);
      if (value === undefined || value.trim() === '') problems.push(`${name} is missing`);
      else if (value.length > MAX_CLIENT_HEADER_LENGTH) {
        problems.push(`${name} must be at most ${MAX_CLIENT_HEADER_LENGTH} characters`);
      }
    }
    return problems;
  }
}

export function acceptsEventStream(request: IncomingMessage): boolean {
  return /\btext\/event-stream\b/i.test(headerValue(request, 'accept') ?? '');
}

/** Node lower-cases incoming header names, so this compares names case-insensitively. */
export function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0] ?? '/';
  return raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
