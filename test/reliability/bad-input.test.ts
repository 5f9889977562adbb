/**
 * Bad messages through the nodes, as an unattended flow meets them: every wrong type of every message
 * property a node reads, request paths that try to leave `/api/v1/`, points that are not numbers. Each input
 * gets exactly one output or exactly one Catch error with a stable code, and the same deployed flow then
 * serves the next good message. One flow and one simulator for the whole file: a bad message that broke
 * a node would break every row after it.
 */
import should from 'should';
import { type DeviceSimulator, sampleZones, startSimulator } from '../../src/simulator';
import type { Zone } from '../../src/zones/types';
import {
  catchModule,
  deviceConfig,
  helper,
  lookupNodeDef,
  nodeModules,
  requestNodeDef,
  type TestNode,
  tab,
  until,
  zonesNodeDef,
} from '../nodes/support';
import { DISTINCTIVE_PASSWORD, SecretsWatch } from './harness';
import {
  assertNoPrototypePollution,
  catchAll,
  type DoneLog,
  recordDone,
  requestsReaching,
  type Watched,
  WRONG_VALUES,
  type WrongValue,
  watch,
} from './rig';

/** What a row expects: a normal output, or one Catch error with this code. */
type Outcome = 'output' | 'INVALID_INPUT';

const REQUEST = 'n-request';
const PATCH = 'n-patch';
const LOOKUP = 'n-lookup';
const ZONES = 'n-zones';

const flow: Record<string, unknown>[] = [
  tab,
  requestNodeDef(REQUEST, 'request-out'),
  requestNodeDef(PATCH, 'patch-out', { method: 'PATCH' }),
  lookupNodeDef(LOOKUP, ['lookup-inside', 'lookup-outside']),
  // `each` with an empty topic: the node then reads both msg.topic and msg.parts.
  zonesNodeDef(ZONES, 'zones-out', { output: 'each', topic: '' }),
  ...['request-out', 'patch-out', 'lookup-inside', 'lookup-outside', 'zones-out'].map((id) => ({
    id,
    type: 'helper',
    z: 'f1',
  })),
  ...catchAll([REQUEST, PATCH, LOOKUP, ZONES]),
];

function centreOf(zone: Zone) {
  const { point1, point2 } = zone.geometry;
  return { x: (point1.x + point2.x) / 2, y: (point1.y + point2.y) / 2 };
}

describe('reliability: bad messages', () => {
  let sim: DeviceSimulator;
  let nodes: Record<string, Watched>;
  let reaching: ReturnType<typeof requestsReaching>;
  let done: DoneLog;
  let secrets: SecretsWatch;
  /** Inputs handed to each node, to check at the end that none was completed twice. */
  const inputs: Record<string, number> = { [REQUEST]: 0, [PATCH]: 0, [LOOKUP]: 0, [ZONES]: 0 };

  before(async () => {
    sim = await startSimulator({ port: 0, passwords: { general: DISTINCTIVE_PASSWORD } });
    reaching = requestsReaching(sim);
    done = recordDone();
    secrets = SecretsWatch.start();
    secrets.addSecret('the general password', DISTINCTIVE_PASSWORD);
    secrets.watchSimulator(sim);
    await helper.load(nodeModules(catchModule), [...flow, deviceConfig(sim)], {
      device: { password: DISTINCTIVE_PASSWORD },
    });
    const getNode = (id: string): TestNode => helper.getNode(id);
    nodes = {
      [REQUEST]: watch(getNode, done, REQUEST, ['request-out']),
      [PATCH]: watch(getNode, done, PATCH, ['patch-out']),
      [LOOKUP]: watch(getNode, done, LOOKUP, ['lookup-inside', 'lookup-outside']),
      [ZONES]: watch(getNode, done, ZONES, ['zones-out']),
    };
  });

  after(async () => {
    reaching?.stop();
    done?.stop();
    await helper.unload();
    secrets?.stop();
    await sim?.close();
  });

  afterEach(() => {
    assertNoPrototypePollution();
  });

  /** Sends one message and waits for the node's done(); returns what it produced. */
  async function send(target: string, msg: Record<string, unknown>) {
    const watched = nodes[target];
    if (watched === undefined) throw new Error(`no node ${target}`);
    const settled = watched.settled;
    const caught = watched.caught;
    const failedBefore = done.failed(target);
    const outputs = watched.outputs.reduce((sum, output) => sum + output.count, 0);
    const reached = reaching.count;
    inputs[target] = (inputs[target] ?? 0) + 1;
    watched.node.receive(msg);
    // done(err) reaches Catch on a later turn: wait for both.
    await until(
      () => watched.settled > settled && watched.caught - caught === done.failed(target) - failedBefore,
      `done() of ${target}`,
    );
    return {
      failed: watched.caught - caught,
      code: watched.codes()[caught],
      outputs: watched.outputs.reduce((sum, output) => sum + output.count, 0) - outputs,
      reachedDevice: reaching.count - reached,
    };
  }

  /** The next good message is served: the node still works after the bad one. */
  async function servesNext(target: string, good: Record<string, unknown>) {
    const result = await send(target, good);
    should(result).containEql({ failed: 0 });
    should(result.outputs).be.above(0);
  }

  async function expectOutcome(target: string, msg: Record<string, unknown>, expected: Outcome) {
    const result = await send(target, msg);
    if (expected === 'output') {
      should(result.failed).equal(0, 'no Catch error');
      should(result.outputs).be.above(0);
    } else {
      should(result).containEql({ failed: 1, code: expected, outputs: 0 });
    }
    return result;
  }

  function rows(
    target: string,
    property: string,
    expected: (value: WrongValue) => Outcome,
    good: Record<string, unknown>,
    base: Record<string, unknown> = {},
  ) {
    for (const value of WRONG_VALUES) {
      const outcome = expected(value);
      it(`msg.${property} = ${value.name}: ${outcome === 'output' ? 'an output' : outcome}, then the next message is served`, async () => {
        const result = await expectOutcome(target, { ...base, [property]: value.make() }, outcome);
        if (outcome === 'INVALID_INPUT' && target !== LOOKUP) should(result.reachedDevice).equal(0);
        await servesNext(target, good);
      });
    }
  }

  const isAbsent = (value: WrongValue) => value.name === 'undefined';
  const point = () => centreOf(sampleZones()[0] as Zone);

  describe('device request: msg.method', () => {
    // Absent or empty: the configured method.
    rows(
      REQUEST,
      'method',
      (v) => (isAbsent(v) || v.name === 'an empty string' ? 'output' : 'INVALID_INPUT'),
      {},
    );
  });

  describe('device request: msg.path', () => {
    rows(
      REQUEST,
      'path',
      (v) => (isAbsent(v) || v.name === 'an empty string' ? 'output' : 'INVALID_INPUT'),
      {},
    );
  });

  describe('device request: paths outside /api/v1/ are refused without contacting the device', () => {
    for (const path of [
      '/_simulator/state',
      '/_simulator/reboot',
      '/api/v2/x',
      '/api',
      '/API/V1/audio',
      '../',
      '/api/v1/../../x',
      '/api/v1/./audio',
      '/api/v1//audio',
      '%2e%2e/api/v1/audio',
      '/api/v1/%2e%2e/%2e%2e/_simulator/state',
      '/api/v1/.%2E/x',
      '/api/v1/..%2f..%2f_simulator%2fstate',
      '/api/v1/%2F%2Fevil/x',
      '/api/v1/..%5c..%5cx',
      '/api/v1/%61uth/login',
      '/api/v1/auth;x=1/login',
      '/api/v1/auth%2flogin',
      'https://evil.example/api/v1/audio',
      'HTTPS://127.0.0.1/api/v1/audio',
      '//evil.example/api/v1/audio',
      'api/v1/audio',
      '\\\\evil\\api\\v1',
      '/api/v1\\..\\..\\x',
      '/api/v1/audio\r\nX-Injected: yes',
      '/api/v1/audio%0d%0aX-Injected:%20yes',
      '/api/v1/audio HTTP/1.1\r\nHost: evil',
      '/api/v1/audio\u0000',
      '/api/v1/audio#/../../x',
      '/api/v1/%zz',
    ]) {
      it(`refuses ${JSON.stringify(path)}, then the next message is served`, async () => {
        const result = await expectOutcome(REQUEST, { path }, 'INVALID_INPUT');
        should(result.reachedDevice).equal(0);
        await servesNext(REQUEST, {});
      });
    }

    it('refuses a 1 MB path under /api/v1/ without contacting the device', async () => {
      const result = await expectOutcome(
        REQUEST,
        { path: `/api/v1/${'a'.repeat(1024 * 1024)}` },
        'INVALID_INPUT',
      );
      should(result.reachedDevice).equal(0);
      await servesNext(REQUEST, {});
    });
  });

  describe('device request: msg.payload as the body of a PATCH', () => {
    /** Values JSON cannot carry are refused before the request; the device judges every other body. */
    const unserialisable = new Set(['a circular object', 'a BigInt', 'a function']);
    for (const value of WRONG_VALUES) {
      const refused = unserialisable.has(value.name);
      it(`msg.payload = ${value.name}: ${refused ? 'INVALID_INPUT before the request' : 'sent, with one answer'}, then the next message is served`, async () => {
        const result = await send(PATCH, { payload: value.make() });
        if (refused) {
          should(result).containEql({ failed: 1, code: 'INVALID_INPUT', outputs: 0, reachedDevice: 0 });
        } else {
          should(result.failed + (result.outputs > 0 ? 1 : 0)).equal(1, 'one output or one error');
          should(result.reachedDevice).be.above(0);
        }
        await servesNext(PATCH, { payload: { microphoneMute: false } });
      });
    }
  });

  describe('zone lookup: the point at msg.payload', () => {
    // The circular object holds finite x and y: it is a point (msg.point keeps only x and y).
    rows(LOOKUP, 'payload', (v) => (v.name === 'a circular object' ? 'output' : 'INVALID_INPUT'), {
      payload: { x: 0, y: 1 },
    });
  });

  describe('zone lookup: points that are not numbers', () => {
    const notNumbers: Array<[string, () => unknown]> = [
      ['x a numeric string', () => ({ x: '12', y: 3 })],
      ['both numeric strings', () => ({ x: '0', y: '1' })],
      ['x NaN', () => ({ x: Number.NaN, y: 1 })],
      ['y Infinity', () => ({ x: 0, y: Number.POSITIVE_INFINITY })],
      ['y -Infinity', () => ({ x: 0, y: Number.NEGATIVE_INFINITY })],
      ['y missing', () => ({ x: 0 })],
      ['x and y null', () => ({ x: null, y: null })],
      ['x and y booleans', () => ({ x: true, y: false })],
      ['x and y arrays', () => ({ x: [0], y: [1] })],
      ['x and y objects with valueOf', () => ({ x: { valueOf: () => 0 }, y: { valueOf: () => 1 } })],
      ['x and y boxed numbers', () => ({ x: new Number(0), y: new Number(1) })],
      ['x and y BigInts', () => ({ x: 0n, y: 1n })],
      ['coordinates holding strings', () => ({ coordinates: { x: '0', y: '1' } })],
      ['coordinates null', () => ({ coordinates: null })],
      ['coordinates NaN', () => ({ coordinates: { x: Number.NaN, y: Number.NaN } })],
    ];
    for (const [name, make] of notNumbers) {
      it(`refuses a point with ${name} with INVALID_INPUT, then the next point is looked up`, async () => {
        await expectOutcome(LOOKUP, { payload: make() }, 'INVALID_INPUT');
        await servesNext(LOOKUP, { payload: point() });
      });
    }

    it('looks up points at the far ends of the number range (finite) like any other', async () => {
      await expectOutcome(LOOKUP, { payload: { x: Number.MAX_VALUE, y: -Number.MAX_VALUE } }, 'output');
      await expectOutcome(LOOKUP, { payload: { x: -0, y: Number.MIN_VALUE } }, 'output');
    });
  });

  describe('zone lookup: msg.zones', () => {
    // Absent: the device's zones. An empty array: no zones, so output 2.
    rows(
      LOOKUP,
      'zones',
      (v) => (isAbsent(v) ? 'output' : 'INVALID_INPUT'),
      { payload: { x: 0, y: 1 } },
      {
        payload: point(),
      },
    );

    it('msg.zones = an empty array: no zone contains the point (output 2)', async () => {
      const result = await expectOutcome(LOOKUP, { payload: point(), zones: [] }, 'output');
      should(result.outputs).equal(1);
      should(nodes[LOOKUP]?.outputs[1]?.messages.at(-1)?.zones).eql([]);
    });

    it('msg.zones = an array that contains itself: INVALID_INPUT', async () => {
      const zones: unknown[] = [];
      zones.push(zones);
      await expectOutcome(LOOKUP, { payload: point(), zones }, 'INVALID_INPUT');
      await servesNext(LOOKUP, { payload: point() });
    });
  });

  describe('room zones: msg.topic and msg.parts', () => {
    // The node reads both only to carry them along: any value gives the zones.
    rows(ZONES, 'topic', () => 'output', {});
    rows(ZONES, 'parts', () => 'output', {});
  });

  // A suite's own tests run before its nested suites: this one is nested so that it runs last.
  describe('afterwards', () => {
    it('showed neither the password nor a token in any message, status, error, log line or exported flow', async () => {
      // The close handlers write to the log too: check after the flow is stopped.
      await helper.unload();
      secrets.check();
    });

    it('completed every input exactly once: no done() called twice, none lost', () => {
      // A late second done() would have arrived by now: every row waited for a later message since.
      should(Object.values(inputs).reduce((sum, count) => sum + count, 0)).be.above(200);
      for (const [target, count] of Object.entries(inputs)) {
        should(nodes[target]?.settled).equal(count, `done() calls of ${target}`);
      }
    });
  });
});
