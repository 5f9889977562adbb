import { Agent, request } from 'undici';
import type { DeviceSimulator } from '../../src/simulator';

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
