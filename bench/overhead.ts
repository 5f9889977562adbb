/**
 * Overhead of a zones read through the package: a message into a room zones node (output `all`) until
 * its output message reaches the next node, in a real Node-RED, against the same read done with undici
 * alone (a pool set up like the package's, logged in once, GET, JSON.parse) in the same process. A third
 * side does the raw read inside the same Node-RED, in a bench-only node that does nothing else (it awaits
 * the raw read and sends the zones to the same next node): Node-RED's own share of the difference.
 *
 * The simulators run in a child process of their own, so their work is not counted on any side.
 * Reads are sequential and every one reaches the device (the benchmark checks the simulators' counters):
 * the package shares only reads that are in flight at the same moment, and there are none here.
 *
 * The package keeps under 300 requests a minute per device on purpose (the device allows about 600): a
 * burst of 30 goes at once, later requests are spaced evenly. So the reads are spread over DEVICES
 * simulators with one config node each, each device getting fewer reads than the burst, and no read ever
 * waits for the ceiling. The raw sides read the same devices in the same order under their own client id, within the
 * device's limit too (the run fails if any request was answered "too many requests").
 *
 * All sides are warmed up, then take turns read by read in rounds, who goes first rotating by round;
 * each round gives a ratio of median latencies and the result is the median ratio. Goal: at most 1.2x.
 */

import type { Pool } from 'undici';
import { type EmbeddedNodeRed, type FlowNode, startEmbeddedNodeRed } from './lib/embedded-node-red';
import { inactiveDebug, pinnedDevice, zonesReader } from './lib/flows';
import {
  BENCH_PASSWORD,
  benchZones,
  deviceCounts,
  pinnedPool,
  rawLogin,
  rawReadZones,
} from './lib/raw-device';
import { type HostedSimulator, startSimulatorProcess } from './lib/simulator-process';
import { formatTable, machineLine, median } from './lib/table';

const DEVICES = 96;
const ROUNDS = 9;
/** Per device and round: a round is DEVICES x READS_PER_DEVICE sequential reads per side. */
const READS_PER_DEVICE = 2;
const WARM_UP_READS_PER_DEVICE = 8;
/**
 * What DeviceClient's default ceiling (300 a minute, src/api/request-limiter.ts) lets go at once: a tenth. Beyond
 * it, requests are spaced 0.22 s apart and a read would measure that wait.
 */
const CLIENT_BURST = 30;
/** The simulator's limit per client and minute; both raw sides share the client id `bench-raw`. */
const DEVICE_LIMIT_PER_MINUTE = 600;
const GOAL = 1.2;
/** The goal: a read through the package at most this much of a raw read from a function node. */
const IN_NODE_RED_GOAL = 1.1;
const SINK = 'overhead-sink';
/** A bench-only node (bench/lib/nodes/bench-raw-read.js) that does the raw read and sends the zones. */
const RAW_NODE = 'overhead-raw-node';
/** A function node that does the same raw read, as a user would write it (undici from the global context). */
const RAW_FUNCTION = 'overhead-raw-function';
const RAW_FUNCTION_CODE = [
  "global.get('benchRawRead')(msg.device).then(",
  '  (zones) => { msg.payload = zones; node.send(msg); node.done(); },',
  '  (error) => node.done(error),',
  ');',
  'return;',
].join('\n');

interface Side {
  name: string;
  /** Latency in ms of one read from device `device`. */
  read: (device: number) => Promise<number>;
  medians: number[];
  slowest: number;
}

function overheadFlow(simulators: readonly HostedSimulator[]): FlowNode[] {
  const flow: FlowNode[] = [{ id: 'overhead-tab', type: 'tab', label: 'overhead' }];
  simulators.forEach((simulator, index) => {
    const device = `overhead-device-${index}`;
    flow.push(
      pinnedDevice(device, simulator, { credentials: { password: BENCH_PASSWORD } }),
      zonesReader(`overhead-zones-${index}`, 'overhead-tab', device, { wires: [[SINK]] }),
    );
  });
  flow.push(
    { id: RAW_NODE, type: 'bench-raw-read', z: 'overhead-tab', wires: [[SINK]] },
    {
      id: RAW_FUNCTION,
      type: 'function',
      z: 'overhead-tab',
      name: 'raw read',
      func: RAW_FUNCTION_CODE,
      outputs: 1,
      wires: [[SINK]],
    },
    inactiveDebug(SINK, 'overhead-tab'),
  );
  return flow;
}

/** Reads through Node-RED: `send` hands a message to a node; the clock stops when a message reaches the sink. */
function flowReader(
  nodeRed: EmbeddedNodeRed,
  zoneCount: number,
  send: (device: number) => void,
): (device: number) => Promise<number> {
  let arrived: ((at: number, msg: Record<string, unknown>) => void) | undefined;
  nodeRed.onMessage(SINK, (msg) => {
    const at = performance.now();
    const settle = arrived;
    arrived = undefined;
    settle?.(at, msg);
  });
  return (device) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      arrived = (at, msg) => {
        if (Array.isArray(msg.payload) && msg.payload.length === zoneCount) resolve(at - start);
        else
          reject(new Error(`device ${device}: the flow sent ${JSON.stringify(msg.payload)?.slice(0, 200)}`));
      };
      send(device);
    });
}

function rawReader(pools: readonly Pool[], tokens: readonly string[], zoneCount: number) {
  return async (device: number): Promise<number> => {
    const start = performance.now();
    const zones = await rawReadZones(pools[device] as Pool, tokens[device] as string);
    const elapsed = performance.now() - start;
    if (zones.length !== zoneCount) throw new Error(`raw read of device ${device} got ${zones.length} zones`);
    return elapsed;
  };
}

/**
 * One round: `reads` sequential reads per side cycling over the devices, the sides taking turns read by read
 * starting with side `first`, so a change in the machine's load hits every side alike.
 */
async function round(sides: readonly Side[], reads: number, first: number): Promise<number[][]> {
  const latencies = sides.map((): number[] => []);
  for (let read = 0; read < reads; read++) {
    for (let turn = 0; turn < sides.length; turn++) {
      const index = (first + turn) % sides.length;
      (latencies[index] as number[]).push(await (sides[index] as Side).read(read % DEVICES));
    }
  }
  return latencies;
}

/** A read that hangs would stall the run silently: every round has a deadline. */
function withDeadline<T>(work: Promise<T>, what: string, deadlineMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not finish within ${deadlineMs} ms`)),
        deadlineMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

function ms(value: number): string {
  return `${value.toFixed(3)} ms`;
}

function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}

export async function run(): Promise<void> {
  const readsPerDevice = WARM_UP_READS_PER_DEVICE + ROUNDS * READS_PER_DEVICE;
  if (readsPerDevice + 1 > CLIENT_BURST || 2 * (readsPerDevice + 1) >= DEVICE_LIMIT_PER_MINUTE) {
    throw new Error(`${readsPerDevice} reads per device would meet a request ceiling and measure waiting`);
  }
  const zones = benchZones();
  const simulators = await startSimulatorProcess(DEVICES, { passwords: { general: BENCH_PASSWORD }, zones });
  const pools = simulators.simulators.map((simulator) => pinnedPool(simulator.url, simulator.fingerprint256));
  let nodeRed: EmbeddedNodeRed | undefined;
  try {
    const urls = simulators.simulators.map((simulator) => simulator.url);
    const tokens = await Promise.all(pools.map((pool) => rawLogin(pool)));
    const rawRead = (device: number) => rawReadZones(pools[device] as Pool, tokens[device] as string);
    nodeRed = await startEmbeddedNodeRed({
      settings: { benchRawRead: rawRead, functionGlobalContext: { benchRawRead: rawRead } },
    });
    await nodeRed.deploy(overheadFlow(simulators.simulators));
    const before = await deviceCounts(urls);

    const flow = nodeRed;
    const sides: Side[] = [
      {
        name: 'package',
        read: flowReader(flow, zones.length, (device) => flow.trigger(`overhead-zones-${device}`, {})),
        medians: [],
        slowest: 0,
      },
      {
        name: 'raw in Node-RED',
        read: flowReader(flow, zones.length, (device) => flow.trigger(RAW_NODE, { device })),
        medians: [],
        slowest: 0,
      },
      { name: 'raw', read: rawReader(pools, tokens, zones.length), medians: [], slowest: 0 },
      {
        name: 'raw in a function node',
        read: flowReader(flow, zones.length, (device) => flow.trigger(RAW_FUNCTION, { device })),
        medians: [],
        slowest: 0,
      },
    ];
    const [candidate, inNodeRed, baseline, inFunction] = sides as [Side, Side, Side, Side];
    // Warm-up: the package logs in on its first read of each device; JIT on every side.
    await withDeadline(round(sides, DEVICES * WARM_UP_READS_PER_DEVICE, 0), 'warm-up');
    const ratios: number[] = [];
    for (let index = 0; index < ROUNDS; index++) {
      const latencies = await withDeadline(
        round(sides, DEVICES * READS_PER_DEVICE, index % sides.length),
        `round ${index + 1}`,
      );
      latencies.forEach((values, side) => {
        const measured = sides[side] as Side;
        measured.medians.push(median(values));
        measured.slowest = Math.max(measured.slowest, ...values);
      });
      ratios.push((candidate.medians[index] as number) / (baseline.medians[index] as number));
    }

    const after = await deviceCounts(urls);
    const reads = DEVICES * readsPerDevice * sides.length;
    const zoneReads = after.zoneReads - before.zoneReads;
    const logins = after.logins - before.logins;
    if (zoneReads !== reads || logins !== DEVICES || after.rateLimited !== 0) {
      throw new Error(
        `the devices counted ${zoneReads} zone reads (expected ${reads}), ${logins} logins (expected ` +
          `${DEVICES}, one per config node) and ${after.rateLimited} rate-limited answers (expected 0)`,
      );
    }

    const result = median(ratios);
    const functionRatios = candidate.medians.map((value, i) => value / (inFunction.medians[i] as number));
    const inNodeRedResult = median(functionRatios);
    const nodeRedShare = median(
      candidate.medians.map((_, i) => (inNodeRed.medians[i] as number) / (baseline.medians[i] as number)),
    );
    // Per round, like the ratios, so a slower round does not weigh on the difference.
    const gapMs = median(candidate.medians.map((value, i) => value - (baseline.medians[i] as number)));
    const nodeRedGapMs = median(inNodeRed.medians.map((value, i) => value - (baseline.medians[i] as number)));
    const lines = [
      `overhead: one zones read (${zones.length} zones) at a time, trigger to output message, ${DEVICES} devices in turn`,
      `  package         = msg into a room zones node (output all) in Node-RED ${nodeRed.version}, until its ` +
        'message reaches the next node',
      '  raw in Node-RED = msg into a bench-only node that awaits the raw read and sends the zones, until that ' +
        'message reaches the next node',
      "  raw             = undici Pool set up like the package's (pinned TLS, keep-alive), logged in once, " +
        'GET + JSON.parse',
      `  ${ROUNDS} rounds of ${DEVICES * READS_PER_DEVICE} reads per side, the sides taking turns read by read ` +
        '(who goes first rotating by round); latency = median of the round',
      '',
      formatTable(
        ['round', 'package', 'raw in Node-RED', 'raw', 'package/raw'],
        ratios.map((value, index) => [
          String(index + 1),
          ms(candidate.medians[index] as number),
          ms(inNodeRed.medians[index] as number),
          ms(baseline.medians[index] as number),
          ratio(value),
        ]),
      ),
      '',
      `  median latency: package ${ms(median(candidate.medians))}, raw in Node-RED ` +
        `${ms(median(inNodeRed.medians))}, raw in a function node ${ms(median(inFunction.medians))}, ` +
        `raw ${ms(median(baseline.medians))}`,
      `  package vs raw in Node-RED: ${ratio(inNodeRedResult)} (median over rounds of package / raw read in a ` +
        `function node; rounds ${ratio(Math.min(...functionRatios))} to ${ratio(Math.max(...functionRatios))}); ` +
        `goal <= ${IN_NODE_RED_GOAL}x: ${inNodeRedResult <= IN_NODE_RED_GOAL ? 'met' : 'missed'}`,
      `  median ratio package/raw: ${ratio(result)} (rounds ${ratio(Math.min(...ratios))} to ` +
        `${ratio(Math.max(...ratios))}); goal <= ${GOAL}x: ${result <= GOAL ? 'met' : 'missed'}`,
      `  per read the package adds ${ms(gapMs)} (median over rounds); of that, ${ms(nodeRedGapMs)} is what ` +
        `Node-RED costs any node that does the read (raw in Node-RED/raw ${ratio(nodeRedShare)})`,
      `  slowest single read: package ${ms(candidate.slowest)}, raw in Node-RED ${ms(inNodeRed.slowest)}, ` +
        `raw ${ms(baseline.slowest)}`,
      `  device counters: ${zoneReads} zone reads for ${reads} reads (every read reached a device), ` +
        `${logins} logins (one per config node), ${after.rateLimited} rate-limited`,
      `  ${machineLine()}`,
      '  reproduce: npm run build && npm run bench   (this file only: node --require tsx/cjs bench/run.ts overhead)',
    ];
    console.log(lines.join('\n'));
  } finally {
    await Promise.all(pools.map((pool) => pool.destroy()));
    await nodeRed?.stop();
    await simulators.stop();
  }
}
