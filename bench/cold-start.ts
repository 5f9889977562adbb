/**
 * Cold start: from the deploy of a flow (a device config node and a room zones node that reads once after
 * deploy, output `all`) until its first zones message reaches the next node, in a real Node-RED with the
 * package loaded. Every round deploys new node ids onto an empty runtime, so it includes a new client, a
 * new TLS connection with a full handshake (pinned certificate, no session reuse), the login and the read.
 *
 * Baseline, in the same process: the same cold sequence with undici alone: a new pool set up like the
 * package's, TLS handshake, login, GET zones, JSON.parse. A third side, the package's DeviceClient alone
 * (new client, readRoomZones), tells the client's share from Node-RED's deploy.
 *
 * The simulator runs in a child process of its own. The sides take turns, who goes first rotating by
 * round; each round gives a ratio (package/raw) and the result is the median ratio. No goal is set for this one;
 * the breakdown shows where the time goes. Between rounds an empty flow is deployed (not timed).
 */

import { performance } from 'node:perf_hooks';
import { DeviceClient } from '../src/api';
import { readRoomZones } from '../src/zones';
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

const ROUNDS = 25;
const WARM_UP_ROUNDS = 2;
const SINK = 'cold-sink';
const TAB = 'cold-tab';

/** One cold start of the package, in ms from the call to deploy. */
interface PackageStart {
  /** Node-RED saved the flows (flow file and credentials) and began to start them. */
  saved: number;
  /** Every node of the flow started. */
  started: number;
  /** The zones node's first message reached the next node. */
  firstMessage: number;
}

/** One cold read by the package's client alone, without Node-RED, in ms from its construction. */
async function clientColdStart(simulator: HostedSimulator, zoneCount: number): Promise<number> {
  const start = performance.now();
  const url = new URL(simulator.url);
  const client = new DeviceClient({
    host: url.hostname,
    port: Number(url.port),
    account: 'general',
    password: BENCH_PASSWORD,
    tls: { mode: 'pin', fingerprint: simulator.fingerprint256 },
    timeoutMs: 10_000,
  });
  try {
    const read = await readRoomZones(client);
    const elapsed = performance.now() - start;
    if (read.zones.length !== zoneCount) throw new Error(`the client read ${read.zones.length} zones`);
    return elapsed;
  } finally {
    await client.close();
  }
}

/** One raw cold sequence, in ms from its start. */
interface RawStart {
  /** New pool: TLS handshake and the login answer. */
  loggedIn: number;
  /** The zones read answered and parsed. */
  zones: number;
}

function coldFlow(simulator: HostedSimulator, round: string): FlowNode[] {
  const device = `cold-device-${round}`;
  return [
    { id: TAB, type: 'tab', label: 'cold start' },
    pinnedDevice(device, simulator, { credentials: { password: BENCH_PASSWORD } }),
    zonesReader(`cold-zones-${round}`, TAB, device, { onStart: true, wires: [[SINK]] }),
    inactiveDebug(SINK, TAB),
  ];
}

async function packageColdStart(
  nodeRed: EmbeddedNodeRed,
  simulator: HostedSimulator,
  round: string,
  zoneCount: number,
): Promise<PackageStart> {
  const flow = coldFlow(simulator, round);
  let arrivedAt = 0;
  const first = nodeRed.nextMessage(SINK, 15_000).then((msg) => {
    arrivedAt = performance.now();
    return msg;
  });
  const start = performance.now();
  const deployed = await nodeRed.deploy(flow);
  const msg = await first;
  if (!Array.isArray(msg.payload) || msg.payload.length !== zoneCount) {
    throw new Error(`the zones node sent ${JSON.stringify(msg.payload)?.slice(0, 200)}`);
  }
  // Back to an empty runtime, untimed: the next round starts as cold as this one did.
  await nodeRed.deploy([]);
  return { saved: deployed.savedMs, started: deployed.startedMs, firstMessage: arrivedAt - start };
}

async function rawColdStart(simulator: HostedSimulator, zoneCount: number): Promise<RawStart> {
  const start = performance.now();
  const pool = pinnedPool(simulator.url, simulator.fingerprint256);
  try {
    const token = await rawLogin(pool);
    const loggedIn = performance.now() - start;
    const zones = await rawReadZones(pool, token);
    const elapsed = performance.now() - start;
    if (zones.length !== zoneCount) throw new Error(`the raw read got ${zones.length} zones`);
    return { loggedIn, zones: elapsed };
  } finally {
    await pool.destroy();
  }
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export async function run(): Promise<void> {
  const zones = benchZones();
  const simulators = await startSimulatorProcess(1, { passwords: { general: BENCH_PASSWORD }, zones });
  const simulator = simulators.simulators[0] as HostedSimulator;
  let nodeRed: EmbeddedNodeRed | undefined;
  try {
    nodeRed = await startEmbeddedNodeRed();
    const before = await deviceCounts([simulator.url]);
    const packageStarts: PackageStart[] = [];
    const clientStarts: number[] = [];
    const rawStarts: RawStart[] = [];
    let firstEver: PackageStart | undefined;
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      const timed = round >= WARM_UP_ROUNDS;
      const sides = [
        async () => {
          const result = await packageColdStart(
            nodeRed as EmbeddedNodeRed,
            simulator,
            String(round),
            zones.length,
          );
          firstEver ??= result;
          if (timed) packageStarts.push(result);
        },
        async () => {
          const result = await clientColdStart(simulator, zones.length);
          if (timed) clientStarts.push(result);
        },
        async () => {
          const result = await rawColdStart(simulator, zones.length);
          if (timed) rawStarts.push(result);
        },
      ];
      for (let turn = 0; turn < sides.length; turn++)
        await (sides[(round + turn) % sides.length] as () => Promise<void>)();
    }
    const after = await deviceCounts([simulator.url]);
    const rounds = WARM_UP_ROUNDS + ROUNDS;
    const logins = after.logins - before.logins;
    const expected = 3 * rounds;
    if (logins !== expected || after.zoneReads - before.zoneReads !== expected || after.rateLimited !== 0) {
      throw new Error(
        `the device counted ${logins} logins and ${after.zoneReads - before.zoneReads} zone reads ` +
          `(expected ${expected} each) and ${after.rateLimited} rate-limited answers (expected 0)`,
      );
    }

    const ratios = packageStarts.map(
      (start, index) => start.firstMessage / (rawStarts[index] as RawStart).zones,
    );
    const result = median(ratios);
    const clientRatio = median(
      clientStarts.map((start, index) => start / (rawStarts[index] as RawStart).zones),
    );
    const packageMedian = median(packageStarts.map((start) => start.firstMessage));
    const rawMedian = median(rawStarts.map((start) => start.zones));
    const savedMedian = median(packageStarts.map((start) => start.saved));
    const startedMedian = median(packageStarts.map((start) => start.started));
    const lines = [
      `cold-start: deploy to the first zones message (${zones.length} zones), TLS handshake and login included`,
      `  package = full deploy onto an empty Node-RED ${nodeRed.version} of a device config node (pinned TLS) and ` +
        'a room zones node (read once after deploy, output all), until its message reaches the next node',
      "  client alone = the package's DeviceClient without Node-RED: new client, readRoomZones() (TLS, login, read)",
      "  raw     = new undici Pool set up like the package's: TLS handshake + login, then GET zones + JSON.parse",
      `  ${ROUNDS} rounds after ${WARM_UP_ROUNDS} warm-up rounds, who goes first rotating by round`,
      '',
      formatTable(
        [
          'round',
          'flows saved',
          'nodes started',
          'first message',
          'client alone',
          'raw logged in',
          'raw zones',
          'ratio',
        ],
        packageStarts.map((start, index) => {
          const raw = rawStarts[index] as RawStart;
          return [
            String(index + 1),
            ms(start.saved),
            ms(start.started),
            ms(start.firstMessage),
            ms(clientStarts[index] as number),
            ms(raw.loggedIn),
            ms(raw.zones),
            `${(ratios[index] as number).toFixed(2)}x`,
          ];
        }),
      ),
      '',
      `  median: package ${ms(packageMedian)} to the first message (flows saved at ${ms(savedMedian)}, nodes ` +
        `started at ${ms(startedMedian)}); client alone ${ms(median(clientStarts))}; raw ${ms(rawMedian)} ` +
        `(logged in at ${ms(median(rawStarts.map((start) => start.loggedIn)))})`,
      `  median ratio package/raw: ${result.toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}x to ` +
        `${Math.max(...ratios).toFixed(2)}x); from nodes started to the first message: ` +
        `${ms(median(packageStarts.map((start) => start.firstMessage - start.started)))}`,
      `  median ratio client alone/raw: ${clientRatio.toFixed(2)}x: the rest of the package's time is the deploy`,
      `  the very first deploy of this process (warm-up, not counted): ${ms(firstEver?.firstMessage ?? Number.NaN)}`,
      `  device counters: ${logins} logins and as many zone reads for ${rounds} rounds of three sides, 0 rate-limited`,
      `  ${machineLine()}`,
      '  reproduce: npm run build && npm run bench   (this file only: node --require tsx/cjs bench/run.ts cold-start)',
    ];
    console.log(lines.join('\n'));
  } finally {
    await nodeRed?.stop();
    await simulators.stop();
  }
}
