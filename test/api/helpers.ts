import { inspect } from 'node:util';
import should from 'should';
import { DeviceClient, type DeviceClientOptions, DeviceError, type DeviceErrorCode } from '../../src/api';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';
import { claimDevicePort } from '../support/device-ports';

/** Distinctive enough to find in any serialisation. */
export const PASSWORD = 'pw-Corr3ct-Horse!';
export const WRONG_PASSWORD = 'pw-Wr0ng-Guess!';

let sharedCertificate: Promise<{ key: string; cert: string }> | undefined;

/** One certificate for the whole run keeps each test's fresh simulator quick to start. */
function certificate(): Promise<{ key: string; cert: string }> {
  sharedCertificate ??= createCertificate('127.0.0.1').then(({ key, cert }) => ({ key, cert }));
  return sharedCertificate;
}

/** A fresh simulator per test (state never leaks between tests) and every client closed after it. */
export class Harness {
  #simulator: DeviceSimulator | undefined;
  readonly #clients: DeviceClient[] = [];
  readonly #secrets = new Set<string>([PASSWORD, WRONG_PASSWORD]);

  get simulator(): DeviceSimulator {
    if (this.#simulator === undefined) throw new Error('simulator not started');
    return this.#simulator;
  }

  async start(options: SimulatorOptions = {}): Promise<DeviceSimulator> {
    await this.#simulator?.close();
    this.#simulator = await this.#startOnFreshPort(options);
    for (const password of Object.values(options.passwords ?? {})) {
      if (password.length >= 4) this.#secrets.add(password);
    }
    return this.#simulator;
  }

  /**
   * A simulator on the port the test asks for, or else on one no test device of this process had: an old
   * port would bring an earlier test's stream connections along (test/support/device-ports.ts).
   */
  async #startOnFreshPort(options: SimulatorOptions): Promise<DeviceSimulator> {
    const onOldPorts: DeviceSimulator[] = [];
    try {
      for (;;) {
        const simulator = await startSimulator({
          tls: await certificate(),
          passwords: { general: PASSWORD, admin: 'AD1-M1N-PWD' },
          ...options,
        });
        if (claimDevicePort(simulator.port) || options.port !== undefined) return simulator;
        // Kept open until a fresh port is found, so that the OS cannot hand the same one back.
        onOldPorts.push(simulator);
      }
    } finally {
      await Promise.all(onOldPorts.map((simulator) => simulator.close()));
    }
  }

  /** A client of the current simulator; closed after the test. */
  client(overrides: Partial<DeviceClientOptions> = {}): DeviceClient {
    const client = new DeviceClient({
      host: '127.0.0.1',
      port: this.simulator.port,
      account: 'general',
      password: PASSWORD,
      tls: { mode: 'insecure' },
      timeoutMs: 2000,
      ...overrides,
    });
    this.#clients.push(client);
    return client;
  }

  /** Every token the simulator was ever shown, taken from its request log. */
  tokens(): string[] {
    const tokens = new Set<string>();
    for (const request of this.#simulator?.requests ?? []) {
      const authorization = request.headers.authorization;
      if (authorization !== undefined) tokens.add(authorization.slice(authorization.indexOf(' ') + 1));
    }
    return [...tokens];
  }

  /** Passwords and tokens of this test, to search for in anything a user could see. */
  secrets(): string[] {
    return [...this.#secrets, ...this.tokens()];
  }

  /** Awaits a call that must fail with this code; checks the error holds no secret. */
  async failure(call: Promise<unknown>, code: DeviceErrorCode): Promise<DeviceError> {
    let caught: unknown;
    try {
      await call;
    } catch (error) {
      caught = error;
    }
    should(caught).be.instanceOf(DeviceError, 'expected the call to fail with a DeviceError');
    const error = caught as DeviceError;
    should(error.code).equal(code, `expected ${code}, got ${error.code}: ${error.message}`);
    assertNoSecret(error, this.secrets());
    return error;
  }

  async stop(): Promise<void> {
    await Promise.all(this.#clients.splice(0).map((client) => client.close()));
    await this.#simulator?.close();
    this.#simulator = undefined;
  }
}

/** Registers before/after hooks giving each test a fresh simulator. */
export function useHarness(options: SimulatorOptions = {}): Harness {
  const harness = new Harness();
  beforeEach(async () => {
    await harness.start(options);
  });
  afterEach(async () => {
    await harness.stop();
  });
  return harness;
}

/** Every way an error is shown or logged: none may hold a secret. */
export function assertNoSecret(value: unknown, secrets: readonly string[]): void {
  const views = [
    JSON.stringify(value),
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    String(value),
  ];
  if (value instanceof Error) {
    views.push(value.message, String(value.stack));
    if (value.cause !== undefined) {
      views.push(inspect(value.cause, { depth: Number.POSITIVE_INFINITY, showHidden: true }));
      views.push(JSON.stringify(value.cause) ?? '');
    }
  }
  for (const secret of secrets) {
    for (const view of views) should(view.includes(secret)).be.false(`a secret appears in: ${view}`);
  }
}

/** Whether a promise has settled yet, without waiting for it. */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const winner = await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise((resolve) => setImmediate(() => resolve(marker))),
  ]);
  return winner !== marker;
}
