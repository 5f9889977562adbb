import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, request } from 'undici';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';

/** A plain HTTPS caller for simulator tests (the project's own client is tested elsewhere). */
export class TestCaller {
  private readonly agent = new Agent({ connect: { rejectUnauthorized: false } });

  constructor(
    private readonly simulator: DeviceSimulator,
    private readonly vendor = 'Vendor',
  ) {}

  clientHeaders(): Record<string, string> {
    return { [`${this.vendor}-Client-Id`]: 'simulator-tests', [`${this.vendor}-Client-Version`]: '1.0.0' };
  }

  async call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: {
      token?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      bare?: boolean;
    } = {},
  ): Promise<{ status: number; headers: Record<string, string>; text: string; json: unknown }> {
    const headers: Record<string, string> = options.bare === true ? {} : this.clientHeaders();
    if (options.token !== undefined) headers.Authorization = `${this.vendor} ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const answer = await request(`${this.simulator.url}${path}`, {
      method,
      headers,
      body,
      dispatcher: this.agent,
    });
    const text = await answer.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const flatHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) flatHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: answer.statusCode, headers: flatHeaders, text, json };
  }

  async login(account: 'general' | 'admin', password: string): Promise<string> {
    const answer = await this.call('POST', '/api/v1/auth/login', { body: { account, password } });
    if (answer.status !== 200) throw new Error(`login answered ${answer.status}`);
    const token = (answer.json as { authParameters?: unknown }).authParameters;
    if (typeof token !== 'string') throw new Error('login answered no authParameters');
    return token;
  }

  /** A control endpoint: no client headers, no authorization. */
  control(method: 'GET' | 'POST' | 'PUT', name: string, body?: unknown) {
    return this.call(method, `/_simulator/${name}`, {
      bare: true,
      ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export function messagesOf(json: unknown): string[] {
  const errors = (json as { errors?: { message: string }[] }).errors;
  if (!Array.isArray(errors)) throw new Error(`not an errors body: ${JSON.stringify(json)}`);
  return errors.map((error) => error.message);
}

/** One open event stream read by a plain SSE parser, so the simulator is checked apart from the client. */
export interface OpenStream {
  status: number;
  contentType: string;
  events: EventSourceMessage[];
  retries: number[];
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  simulator: DeviceSimulator,
  path: string,
  options: { token?: string; accept?: string; vendor?: string } = {},
): Promise<OpenStream> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  const vendor = options.vendor ?? 'Vendor';
  const abort = new AbortController();
  const headers: Record<string, string> = {
    [`${vendor}-Client-Id`]: 'stream-tests',
    [`${vendor}-Client-Version`]: '1.0.0',
    accept: options.accept ?? 'text/event-stream',
  };
  if (options.token !== undefined) headers.authorization = `${vendor} ${options.token}`;
  const answer = await request(`${simulator.url}${path}`, {
    headers,
    dispatcher: agent,
    signal: abort.signal,
  });
  const events: EventSourceMessage[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  const ended = (async () => {
    try {
      for await (const chunk of answer.body) parser.feed((chunk as Buffer).toString('utf8'));
    } catch {
      // Aborted by close(), or dropped by the simulator: the test looks at what arrived.
    }
    await agent.close().catch(() => undefined);
  })();
  return {
    status: answer.statusCode,
    contentType: String(answer.headers['content-type'] ?? ''),
    events,
    retries,
    ended,
    close: () => abort.abort(),
  };
}

/**
 * A simulator for one test, with a caller, a token of each account and an open change stream
 * (`/api/v1/events`). Call `start` in `beforeEach` and `stop` in `afterEach`.
 */
export class DeviceUnderTest {
  simulator!: DeviceSimulator;
  caller!: TestCaller;
  general!: string;
  admin!: string;
  changes!: OpenStream;

  async start(options: SimulatorOptions = {}): Promise<void> {
    this.simulator = await startSimulator({ passwords: { general: 'general-secret' }, ...options });
    this.caller = new TestCaller(this.simulator);
    this.general = await this.caller.login('general', 'general-secret');
    this.admin = await this.caller.login('admin', this.simulator.enrollmentCode);
    this.changes = await openStream(this.simulator, '/api/v1/events', { token: this.general });
  }

  async stop(): Promise<void> {
    this.changes?.close();
    await this.changes?.ended;
    await this.caller?.close();
    await this.simulator?.close();
  }

  /** A device request as the general account (or the one given). */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    path: string,
    options: { body?: unknown; rawBody?: string; token?: string } = {},
  ) {
    return this.caller.call(method, path, { token: this.general, ...options });
  }

  /** The change events of one name that arrived so far. */
  events(name: string): EventSourceMessage[] {
    return this.changes.events.filter((event) => event.event === name);
  }

  /** Waits for the `count`-th change event of `name` and returns its data (undefined for an empty one). */
  async event(name: string, count = 1): Promise<unknown> {
    await until(() => this.events(name).length >= count, `change event ${name} #${count}`);
    const data = this.events(name)[count - 1]?.data ?? '';
    return data === '' ? undefined : (JSON.parse(data) as unknown);
  }
}

/** The problem-details refusal of the device's newer endpoints. */
export function problemsOf(json: unknown): { details: string; errorCode: unknown }[] {
  const problems = (json as { problems?: { details: string; errorCode: unknown }[] }).problems;
  if (!Array.isArray(problems)) throw new Error(`not a problem-details body: ${JSON.stringify(json)}`);
  return problems;
}
