/**
 * The secrets harness of the reliability tests: everything a user could see while a flow runs, checked for
 * the device password and every token the simulator handed out.
 *
 * Per test (fresh simulator, check after each test):
 *
 *     const rig = useReliabilityHarness();            // inside describe(); the general password is
 *     it('...', async () => {                         // DISTINCTIVE_PASSWORD unless options say otherwise
 *       await helper.load(nodeModules(), flow, rig.credentials());
 *       ...
 *     });
 *
 * For a whole file with one flow (start the watch before helper.load, check after the last unload):
 *
 *     let watch: SecretsWatch;
 *     before(async () => { watch = SecretsWatch.start(); ... watch.watchSimulator(sim); await helper.load(...) });
 *     after(async () => { await helper.unload(); watch.check(); watch.stop(); });
 *
 * What counts as seen, for every flow started while the watch runs: every message any node sends and every
 * message a `helper` node receives; every status, error, warning and log call of every node (Catch and
 * Complete nodes included, so Catch messages and their errors count twice, once as sent messages); every
 * line of the runtime log; the flow configuration each deploy starts, which is what the admin API's
 * `GET /flows` hands the editor for export; and whatever a test adds with `see()`. Node calls and log
 * lines are read from the spies the test helper puts on them (its public API: `helper.log()` and the node
 * methods its README lists), found through the nodes of each started flow; deploys are seen through
 * Node-RED's `flows:started` event. No private state of the helper is touched.
 * Each is searched as `util.inspect` output (errors with their stack and cause), as JSON, and for errors
 * as their string and stack. Values are rendered when checked, not when seen, to keep load tests fast.
 *
 * Secrets are the passwords the test names (the harness names its own) and every token of every simulator
 * the watch was given: the Authorization headers the simulator received and the tokens its logins issued.
 * A failure names the secret and where it appeared, with an excerpt in which every secret is masked.
 */

import type { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { helper, requireFromRuntime, useSimulator } from '../nodes/support';

/** The general account's password in every reliability test: long and odd enough to find anywhere. */
export const DISTINCTIVE_PASSWORD = 'Rel!ability-7xQ-pass';

/** A value that must never be seen; `name` is what a failure shows instead of it. */
export interface Secret {
  name: string;
  value: string;
}

/** One thing a user could see, and where. */
export interface Sighting {
  where: string;
  value: unknown;
}

/** Secrets this short would match by chance; the client's own redaction draws the same line. */
const MIN_SECRET_LENGTH = 4;
const MAX_REPORTED_LEAKS = 10;
const INSPECT_OPTIONS = {
  depth: 12,
  maxArrayLength: Number.POSITIVE_INFINITY,
  maxStringLength: Number.POSITIVE_INFINITY,
  breakLength: Number.POSITIVE_INFINITY,
} as const;

/** The node methods the test helper turns into sinon spies (its README lists them). */
const SPIED_METHODS = ['send', 'status', 'error', 'warn', 'log', 'debug', 'trace'] as const;
type NodeMethod = (typeof SPIED_METHODS)[number] | 'receive';

interface NodeLike {
  id?: unknown;
  type?: unknown;
  name?: unknown;
}

/** The part of a sinon spy this reads: its calls, each with the node it was called on. */
interface Spy {
  getCalls(): Array<{ thisValue: unknown; args: unknown[] }>;
}

function isSpy(value: unknown): value is Spy {
  return typeof (value as Partial<Spy> | undefined)?.getCalls === 'function';
}

/** Node-RED's runtime events (RED.events), where every started flow is announced. */
const runtimeEvents = requireFromRuntime<{ events: EventEmitter }>('@node-red/util').events;

interface FlowsStarted {
  config?: { flows?: unknown };
}

const running = new Set<SecretsWatch>();

/**
 * Resets the helper's spies (`reset`) without losing what they recorded for the running watches: they
 * read the calls first, and count from zero afterwards.
 */
export function resetSpiesKeepingSightings(reset: () => void): void {
  for (const watch of running) watch.collect();
  reset();
  for (const watch of running) watch.spiesReset();
}

// ---------------------------------------------------------------------------------------------------------

/** Records everything a user could see from `start()` to `stop()`; `check()` looks for the secrets in it. */
export class SecretsWatch {
  readonly #sightings: Sighting[] = [];
  readonly #secrets = new Map<string, string>();
  readonly #simulators = new Set<DeviceSimulator>();
  readonly #counts = new Map<string, number>();
  /** The spies found so far (one set per helper.load), with how many of their calls were read. */
  readonly #spies = new Map<Spy, { method: NodeMethod | 'runtime log'; read: number }>();
  readonly #listened = new WeakSet<object>();
  #deploys = 0;
  readonly #onFlowsStarted = (event: FlowsStarted) => {
    this.#deploys += 1;
    const flows = event.config?.flows;
    // Serialised now: the next deploy replaces the configuration object.
    this.see(`the exported flow of deploy #${this.#deploys}`, JSON.stringify(flows ?? null));
    this.#findSpies(Array.isArray(flows) ? flows : []);
  };

  private constructor() {}

  /** Starts recording: every flow started from now on. Call before helper.load. */
  static start(): SecretsWatch {
    const watch = new SecretsWatch();
    running.add(watch);
    runtimeEvents.on('flows:started', watch.#onFlowsStarted);
    return watch;
  }

  /** The helper's spies, reached through the nodes of a started flow; helper nodes' inputs, listened to. */
  #findSpies(flows: unknown[]): void {
    const logSpy: unknown = helper.log();
    if (isSpy(logSpy) && !this.#spies.has(logSpy))
      this.#spies.set(logSpy, { method: 'runtime log', read: 0 });
    for (const config of flows) {
      const id = (config as NodeLike | null)?.id;
      if (typeof id !== 'string') continue;
      const node = helper.getNode(id) as unknown as (NodeLike & Record<string, unknown>) | undefined;
      if (node === undefined || node === null) continue;
      for (const method of SPIED_METHODS) {
        // An unwired node's send is a no-op of the runtime, not the spy: a wired node has the spy.
        const spy = node[method];
        if (isSpy(spy) && !this.#spies.has(spy)) this.#spies.set(spy, { method, read: 0 });
      }
      if (node.type === 'helper' && !this.#listened.has(node)) {
        this.#listened.add(node);
        const label = { id: node.id, type: node.type, name: node.name };
        // The listener holds the label, not the node: old nodes must stay free to go (load tests).
        (node as unknown as EventEmitter).on('input', (msg: unknown) =>
          this.nodeCall('receive', label, [msg]),
        );
      }
    }
  }

  /** Reads the calls the spies recorded since the last read. */
  collect(): void {
    for (const [spy, entry] of this.#spies) {
      const calls = spy.getCalls();
      for (const call of calls.slice(entry.read)) {
        if (entry.method === 'runtime log') this.logLine(call.args[0]);
        else this.nodeCall(entry.method, call.thisValue as NodeLike, call.args);
      }
      entry.read = calls.length;
    }
  }

  /** @internal After the spies' history was reset: their next calls are new. */
  spiesReset(): void {
    for (const entry of this.#spies.values()) entry.read = 0;
  }

  /** A password (or anything else) that must never be seen; `name` is shown in failures instead. */
  addSecret(name: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH) {
      throw new Error(
        `secret "${name}" is too short to search for: use at least ${MIN_SECRET_LENGTH} characters`,
      );
    }
    if (!this.#secrets.has(value)) this.#secrets.set(value, name);
  }

  /** Every token this simulator received or issued becomes a secret (read when checking). */
  watchSimulator(simulator: DeviceSimulator): void {
    this.#simulators.add(simulator);
  }

  /** Adds something a user could see that the hooks do not catch (an admin answer, a file, a page). */
  see(where: string, value: unknown): void {
    this.#sightings.push({ where, value });
  }

  /** @internal For every line of the runtime log. */
  logLine(entry: unknown): void {
    this.see(`runtime log line #${this.#count('log line')}`, entry);
  }

  #count(key: string): number {
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }

  /** @internal For every recorded node method call. */
  nodeCall(method: NodeMethod, node: NodeLike, args: unknown[]): void {
    const label = `${String(node.id)} (${String(node.type)}${typeof node.name === 'string' && node.name !== '' ? ` "${node.name}"` : ''})`;
    const count = this.#count(`${method} ${label}`);
    const what: Record<NodeMethod, string> = {
      send: 'message sent by node',
      receive: 'message received by helper node',
      status: 'status of node',
      error: 'error reported by node',
      warn: 'warning of node',
      log: 'log call of node',
      debug: 'debug log call of node',
      trace: 'trace log call of node',
    };
    this.see(`${what[method]} ${label}, call #${count}`, args.length === 1 ? args[0] : args);
  }

  get sightings(): readonly Sighting[] {
    return this.#sightings;
  }

  /** The named secrets plus every token of every watched simulator, as of now. */
  secrets(): Secret[] {
    const secrets = [...this.#secrets].map(([value, name]) => ({ name, value }));
    for (const simulator of this.#simulators) secrets.push(...simulatorSecrets(simulator));
    return secrets;
  }

  /**
   * Fails naming each place a secret was seen. Afterwards the sightings checked are let go, so a long run
   * may check now and then to keep memory flat. Fails too when nothing at all was seen: a check of nothing
   * cannot fail.
   */
  check(): void {
    this.collect();
    if (this.#sightings.length === 0) {
      throw new Error('the secrets watch saw nothing: start it before the flow is loaded');
    }
    assertNoSecrets(this.#sightings, this.secrets());
    this.#sightings.length = 0;
  }

  /** Stops recording: reads what the spies hold now, then lets them go. */
  stop(): void {
    this.collect();
    this.#spies.clear();
    running.delete(this);
    runtimeEvents.off('flows:started', this.#onFlowsStarted);
  }
}

/** The tokens a simulator was shown in Authorization headers and the ones its logins handed out. */
export function simulatorSecrets(simulator: DeviceSimulator): Secret[] {
  const tokens = new Set<string>(simulator.issuedTokens);
  for (const request of simulator.requests) {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) tokens.add(authorization.slice(authorization.indexOf(' ') + 1));
  }
  return [...tokens]
    .filter((token) => token.length >= MIN_SECRET_LENGTH)
    .map((value, index) => ({ name: `token #${index + 1} of the simulator at ${simulator.url}`, value }));
}

/** The forms a secret takes once embedded: as is, inside a JSON string, URL-encoded. */
function formsOf(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

function safeJson(value: unknown): string | undefined {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === 'bigint') return `${item}n`;
      if (typeof item === 'object' && item !== null) {
        if (seen.has(item)) return '[circular]';
        seen.add(item);
      }
      return item;
    });
  } catch {
    return undefined;
  }
}

/** Every text form a user may meet the value in: the debug sidebar's inspect, JSON, an error's text. */
function renderings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  const texts = [inspect(value, INSPECT_OPTIONS)];
  const json = safeJson(value);
  if (json !== undefined) texts.push(json);
  if (value instanceof Error) texts.push(String(value), String(value.stack));
  return texts;
}

/**
 * Fails when any secret, in any of its forms, appears in any rendering of any sighting. The message names
 * the secret and the place and shows an excerpt with every secret masked; it never holds a secret.
 */
export function assertNoSecrets(sightings: readonly Sighting[], secrets: readonly Secret[]): void {
  const searched = secrets
    .filter((secret) => secret.value.length >= MIN_SECRET_LENGTH)
    .map((secret) => ({ name: secret.name, forms: formsOf(secret.value) }));
  const mask = (text: string): string => {
    let masked = text;
    for (const secret of searched) {
      for (const form of secret.forms) masked = masked.split(form).join(`<${secret.name}>`);
    }
    return masked;
  };
  const leaks: string[] = [];
  for (const sighting of sightings) {
    for (const text of renderings(sighting.value)) {
      const found = searched.find((secret) => secret.forms.some((form) => text.includes(form)));
      if (found === undefined) continue;
      const masked = mask(text);
      const at = masked.indexOf(`<${found.name}>`);
      const excerpt = masked.slice(Math.max(0, at - 60), at + found.name.length + 62).replace(/\s+/g, ' ');
      leaks.push(`${found.name} appears in ${sighting.where}: …${excerpt}…`);
      break;
    }
    if (leaks.length >= MAX_REPORTED_LEAKS) break;
  }
  if (leaks.length > 0) {
    throw new Error(
      `A secret was visible to the user (${leaks.length} place(s) shown):\n  ${leaks.join('\n  ')}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------

export interface ReliabilityHarness {
  /** This test's simulator (general password DISTINCTIVE_PASSWORD unless the options set one). */
  readonly simulator: DeviceSimulator;
  /** This test's watch: add secrets, simulators or sightings to it. */
  readonly watch: SecretsWatch;
  /** Credentials for `helper.load` for config node `device` (default id); the password becomes a secret. */
  credentials(password?: string, deviceId?: string): Record<string, Record<string, string>>;
  /** Another simulator, watched for tokens and closed after the test (a device that comes up later...). */
  startSimulator(options?: SimulatorOptions): Promise<DeviceSimulator>;
}

/**
 * Gives each test of the calling describe block a fresh simulator (through `useSimulator`) and a secrets
 * watch; after each test the flow is unloaded and the simulators closed, then, if the test passed, the
 * watch checks everything it showed. A leak fails that test's "after each" hook, naming the place; Mocha
 * then skips the rest of the describe block, which a leak deserves. A failed test is not checked, so its
 * own failure is the one reported.
 */
export function useReliabilityHarness(options: SimulatorOptions = {}): ReliabilityHarness {
  const simulatorOptions: SimulatorOptions = {
    ...options,
    passwords: { general: DISTINCTIVE_PASSWORD, ...options.passwords },
  };
  let simulator: DeviceSimulator | undefined;
  let watch: SecretsWatch | undefined;
  const extraSimulators: DeviceSimulator[] = [];

  beforeEach(() => {
    watch = SecretsWatch.start();
    for (const [account, password] of Object.entries(simulatorOptions.passwords ?? {})) {
      if (password !== undefined && password.length >= MIN_SECRET_LENGTH) {
        watch.addSecret(`the ${account} password of the device`, password);
      }
    }
  });
  useSimulator(simulatorOptions, (started) => {
    simulator = started;
    watch?.watchSimulator(started);
  });
  // Registered after useSimulator's, so it runs after the flow is unloaded: close handlers count too.
  afterEach(async function (this: Mocha.Context) {
    const current = watch;
    watch = undefined;
    await Promise.all(extraSimulators.splice(0).map((extra) => extra.close()));
    if (current === undefined) return;
    current.stop();
    if (this.currentTest?.state === 'passed') current.check();
  });

  return {
    get simulator() {
      if (simulator === undefined)
        throw new Error('the simulator starts in beforeEach: use it inside a test');
      return simulator;
    },
    get watch() {
      if (watch === undefined)
        throw new Error('the secrets watch starts in beforeEach: use it inside a test');
      return watch;
    },
    credentials(password = DISTINCTIVE_PASSWORD, deviceId = 'device') {
      if (password.length >= MIN_SECRET_LENGTH)
        this.watch.addSecret('a password the test deployed', password);
      return { [deviceId]: { password } };
    },
    async startSimulator(extraOptions = {}) {
      const started = await startSimulator({
        port: 0,
        ...extraOptions,
        passwords: { general: DISTINCTIVE_PASSWORD, ...extraOptions.passwords },
      });
      extraSimulators.push(started);
      this.watch.watchSimulator(started);
      for (const [account, password] of Object.entries(extraOptions.passwords ?? {})) {
        if (password !== undefined && password.length >= MIN_SECRET_LENGTH) {
          this.watch.addSecret(`the ${account} password of the simulator on port ${started.port}`, password);
        }
      }
      return started;
    },
  };
}
