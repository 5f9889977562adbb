/**
 * Flows for the device-side reliability tests (faults, bodies, TLS): one node under test wired to helper
 * nodes, its done() calls counted through a Complete and a Catch node, and waits that do not read the
 * clock the fault tests fake.
 */
import { performance } from 'node:perf_hooks';
import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import {
  catchModule,
  completeModule,
  counter,
  delay,
  deviceConfig,
  doneWatchers,
  helper,
  lookupNodeDef,
  nodeModules,
  requestNodeDef,
  type TestNode,
  tab,
  zonesNodeDef,
} from '../nodes/support';
import { shownStatusText } from '../support/status-text';
import type { ReliabilityHarness } from './harness';

export const ZONES_PATH = '/api/v1/room/zones';
export const UNDER_TEST = 'n-under-test';

type Counter = ReturnType<typeof counter>;

export function zonesNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return zonesNodeDef(UNDER_TEST, 'out', extra);
}

export function requestNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return requestNodeDef(UNDER_TEST, 'out', extra);
}

/** Zones from the device; points inside a zone leave on `out`, points in no zone on `outside`. */
export function lookupNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return lookupNodeDef(UNDER_TEST, ['out', 'outside'], { maxAge: 0, ...extra });
}

/** What one input led to: a message on an output, or an error at the Catch node. */
export type Outcome =
  | { kind: 'output'; msg: Record<string, unknown> }
  | { kind: 'error'; code: string; message: string };

/** A deployed flow with one node under test, its outputs and its done() calls. */
export class DeviceFlow {
  readonly node: TestNode;
  readonly outputs: Counter;
  /** done() without an error (through the Complete node). */
  readonly ok: Counter;
  /** Errors reaching the Catch node: done(err) and errors of background reads. */
  readonly failed: Counter;
  readonly statuses: Array<{ fill?: string; shape?: string; text?: string }> = [];
  #inputs = 0;

  private constructor() {
    this.node = helper.getNode(UNDER_TEST);
    const outputs = [helper.getNode('out'), helper.getNode('outside')].filter((node) => node !== null);
    this.outputs = counter(outputs[0] as TestNode);
    if (outputs[1] !== undefined) {
      // Both outputs count as "an output": the lookup answers on one or the other.
      outputs[1].on('input', (msg: never) => this.outputs.messages.push(msg));
    }
    this.ok = counter(helper.getNode('ok'));
    this.failed = counter(helper.getNode('failed'));
    this.node.on('call:status', (call: never) => {
      // As the English editor shows it: the runtime sends catalogue keys.
      const sent = (call as { args: [Record<string, string>] }).args[0];
      this.statuses.push(sent.text === undefined ? sent : { ...sent, text: shownStatusText(sent.text) });
    });
  }

  /** Deploys the node under test against `simulator` with the harness's password (or `password`). */
  static async deploy(
    rig: ReliabilityHarness,
    node: Record<string, unknown>,
    options: {
      simulator?: DeviceSimulator;
      device?: Record<string, unknown>;
      password?: string;
      /** More nodes on the tab, e.g. a second node wired to the output. */
      extraNodes?: Record<string, unknown>[];
    } = {},
  ): Promise<DeviceFlow> {
    const simulator = options.simulator ?? rig.simulator;
    const flow = [
      tab,
      deviceConfig(simulator, options.device),
      node,
      { id: 'out', type: 'helper', z: 'f1' },
      ...(node.type === 'conference-audio-zone-lookup' ? [{ id: 'outside', type: 'helper', z: 'f1' }] : []),
      ...doneWatchers(UNDER_TEST),
      ...(options.extraNodes ?? []),
    ];
    await helper.load(nodeModules(completeModule, catchModule), flow, rig.credentials(options.password));
    return new DeviceFlow();
  }

  /** Status texts shown so far, a repeated text once. */
  statusTexts(): string[] {
    return this.statuses
      .map((status) => status.text ?? '')
      .filter((text, index, texts) => index === 0 || texts[index - 1] !== text);
  }

  /**
   * Sends one input and waits until the node called done() for it; then checks it led to exactly one
   * output (done()) or exactly one Catch error (done(err)), never both, never two. Inputs are told apart
   * by their message id, so errors of background reads (polls) do not count.
   */
  async input(msg: Record<string, unknown> = {}): Promise<Outcome> {
    this.#inputs += 1;
    const id = `input-${this.#inputs}`;
    const mine = (list: Counter) => list.messages.filter((message) => message._msgid === id);
    this.node.receive({ ...msg, _msgid: id });
    await waitFor(() => mine(this.ok).length + mine(this.failed).length > 0, `done() for ${id}`);
    // A second output or a late second done() would arrive within a few turns of the event loop.
    await delay(20);
    should(mine(this.ok).length + mine(this.failed).length).equal(1, `one done() for ${id}`);
    const outputs = mine(this.outputs);
    const errors = mine(this.failed);
    should(outputs.length + errors.length).equal(1, `exactly one output or one Catch error for ${id}`);
    const [output] = outputs;
    if (output !== undefined) return { kind: 'output', msg: output };
    const error = (errors[0]?.error ?? {}) as { code?: unknown; message?: unknown };
    return { kind: 'error', code: String(error.code), message: String(error.message) };
  }

  /** Sends one input that must fail with `code`; returns the error message. */
  async fails(code: string, msg: Record<string, unknown> = {}): Promise<string> {
    const outcome = await this.input(msg);
    should(outcome.kind).equal('error', `expected ${code}, got an output`);
    const { code: got, message } = outcome as Extract<Outcome, { kind: 'error' }>;
    should(got).equal(code, `expected ${code}, got ${got}: ${message}`);
    return message;
  }

  /** Sends one input that must lead to an output; returns that message. */
  async serves(msg: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const outcome = await this.input(msg);
    if (outcome.kind === 'error')
      throw new Error(`expected an output, got ${outcome.code}: ${outcome.message}`);
    return outcome.msg;
  }
}

/**
 * Polls `condition` on real timers with a deadline from `performance.now()`, which the tests that fake
 * `Date` leave alone (support's `until` reads `Date.now()`, which stands still under a fake clock).
 */
export async function waitFor(condition: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}
