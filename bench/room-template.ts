/**
 * What a room built from example 9's template costs: N instances of the "conference room"
 * subflow of `examples/09 Many rooms.json`, as users deploy them (each with its own device config node
 * and its own MQTT broker config node; room zones, active zone, device state, Status, Catch, the "room
 * topics" function and an mqtt out node), in one Node-RED 4.1 child process, against simulators in child
 * processes of their own (50 each; talkers walking between the zones, a soundLocation reading every
 * 200 ms) and an aedes broker in this process, which counts what Node-RED publishes.
 *
 * Per size, after a full deploy and once every device streams: settle, a full GC, then over a window the
 * share of one core Node-RED used (every thread), its heap after a full GC, the MQTT messages a second the
 * broker received, the MQTT connections open at the broker, the requests and new (TLS) connections a
 * second the simulators answered, and how many rooms' retained status topics say online or muted. Size 0
 * (the bench's stats tab alone) is the baseline: per room = (size N - size 0) / N. Then the largest size
 * once more with the broker config node taken out of the subflow (one shared connection), to show what a
 * room's own MQTT connection costs; that variant loses the per-room last will and is a measurement only.
 *
 * TEMPLATE_PROFILE=heap measures the largest size alone (room broker) with V8's sampling heap profiler
 * running in Node-RED from the deploy to the end of settling, and prints which code allocated what each
 * room still holds.
 *
 * Reproduce: npm run build && node --require tsx/cjs bench/run.ts room-template
 * Overridable: TEMPLATE_SIZES=50,200 TEMPLATE_WINDOW_SECONDS=60 TEMPLATE_SETTLE_SECONDS=10
 * TEMPLATE_WARMUP_SECONDS=10 TEMPLATE_STREAMING_TIMEOUT_SECONDS=120 TEMPLATE_PROFILE=heap
 */
import { statusTopic } from '../test/rooms/support';
import { delay } from '../test/support/wait';
import { stopAll } from './lib/cleanup';
import { type CountingBroker, startCountingBroker } from './lib/counting-broker';
import { type HeapProfileNode, profileReport, summariseHeapProfile } from './lib/cpu-profile';
import { type BenchNodeRed, cpuShare, startBenchNodeRed } from './lib/node-red-child';
import { roomName, templateRooms, withSharedBroker } from './lib/room-template-flows';
import { type TemplateSample, templateReport } from './lib/room-template-report';
import {
  type HostedSimulator,
  readAllStats,
  requestsBetween,
  type SimulatorProcess,
  startSimulatorProcesses,
} from './lib/simulator-process';
import { envNumber, envSizes, machineLine } from './lib/table';

const SIZES = envSizes('TEMPLATE_SIZES', '50,200');
/** 60 s: the device state is read again once a minute and the zones every 9 minutes (see many-rooms). */
const WINDOW_SECONDS = envNumber('TEMPLATE_WINDOW_SECONDS', 60);
const SETTLE_SECONDS = envNumber('TEMPLATE_SETTLE_SECONDS', 10);
const WARMUP_SECONDS = envNumber('TEMPLATE_WARMUP_SECONDS', 10);
const STREAMING_TIMEOUT_SECONDS = envNumber('TEMPLATE_STREAMING_TIMEOUT_SECONDS', 120);
const PER_PROCESS = 50;
const PASSWORD = 'bench-template-password';
const POLL_MS = 250;
const HEAP_PROFILE = process.env.TEMPLATE_PROFILE === 'heap';

function countWords(words: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const word of words) counts[word] = (counts[word] ?? 0) + 1;
  return counts;
}

interface Run {
  nodeRed: BenchNodeRed;
  broker: CountingBroker;
  processes: readonly SimulatorProcess[];
}

/** The rooms of one measurement. */
interface RoomSet {
  simulators: readonly HostedSimulator[];
  /** Every set names its rooms apart, so that a status left retained by the set before is not read. */
  prefix: string;
  variant: TemplateSample['variant'];
}

/**
 * Node-RED lets go of every room and the devices see every stream closed, so that each size starts as a
 * deploy on a fresh Node-RED does, not while the rooms before it still close their connections.
 */
async function releaseRooms({ nodeRed, processes }: Run): Promise<void> {
  await nodeRed.deploy([]);
  const deadline = Date.now() + STREAMING_TIMEOUT_SECONDS * 1000;
  const openStreams = async () =>
    (await readAllStats(processes)).reduce((sum, each) => sum + each.openStreams, 0);
  while ((await openStreams()) > 0 && Date.now() < deadline) await delay(POLL_MS);
}

/** Deploys the rooms and waits until each of their devices has a data stream accepted; answers how many do. */
async function deployAndStream(run: Run, { simulators, prefix, variant }: RoomSet): Promise<number> {
  const { nodeRed, broker, processes } = run;
  await releaseRooms(run);
  await Promise.all(processes.map((child) => child.reset()));
  const rooms = templateRooms(simulators, prefix, PASSWORD, broker.port);
  await nodeRed.deploy(variant === 'shared broker' ? withSharedBroker(rooms, broker.port) : rooms);
  const deadline = Date.now() + STREAMING_TIMEOUT_SECONDS * 1000;
  const streamingNow = async () =>
    (await readAllStats(processes))
      .slice(0, simulators.length)
      .filter((each) => each.dataStreamTimes.length > 0).length;
  let streaming = await streamingNow();
  while (streaming < simulators.length && Date.now() < deadline) {
    await delay(POLL_MS);
    streaming = await streamingNow();
  }
  return streaming;
}

async function measure(
  run: Run,
  rooms: RoomSet,
): Promise<{ sample: TemplateSample; heap?: HeapProfileNode }> {
  const { nodeRed, broker, processes } = run;
  const size = rooms.simulators.length;
  if (HEAP_PROFILE) await nodeRed.startHeapSampling();
  const streaming = await deployAndStream(run, rooms);
  await delay(SETTLE_SECONDS * 1000);
  // What the size before left behind is collected before the window.
  await nodeRed.stats({ gc: true });
  const heap = HEAP_PROFILE ? await nodeRed.stopHeapSampling() : undefined;
  const brokerStart = { at: Date.now(), published: broker.published() };
  const [before, first] = await Promise.all([readAllStats(processes), nodeRed.stats()]);
  await delay(WINDOW_SECONDS * 1000);
  const [after, last] = await Promise.all([readAllStats(processes), nodeRed.stats()]);
  const brokerSeconds = (Date.now() - brokerStart.at) / 1000;
  const mqttPerSecond = (broker.published() - brokerStart.published) / brokerSeconds;
  const memory = await nodeRed.stats({ gc: true });
  const simulatorSeconds = ((after[0]?.atMs ?? 0) - (before[0]?.atMs ?? 0)) / 1000;
  const requests = requestsBetween(before.slice(0, size), after.slice(0, size));
  const names = rooms.simulators.map((_, index) => roomName(rooms.prefix, index));
  const sample: TemplateSample = {
    variant: rooms.variant,
    rooms: size,
    cpu: cpuShare(first, last),
    heapUsed: memory.heapUsed,
    mqttPerSecond,
    mqttConnections: broker.connectedClients(),
    requestsPerSecond: Object.fromEntries(
      [...requests].map(([path, count]) => [path, count / simulatorSeconds]),
    ),
    connectionsPerSecond:
      after
        .slice(0, size)
        .reduce((sum, each, index) => sum + each.connections - (before[index]?.connections ?? 0), 0) /
      simulatorSeconds,
    streaming,
    statusWords: countWords(names.map((name) => broker.latest(statusTopic(name)) ?? '(none)')),
  };
  return { sample, ...(heap && { heap }) };
}

/** Which code allocated what each room still holds after settling (TEMPLATE_PROFILE=heap). */
function printHeapProfile(rooms: number, heap: HeapProfileNode): void {
  console.log(
    `\n  heap profile: what the deploy of ${rooms} rooms allocated and still holds after settling and a ` +
      'full GC, by where it was allocated (sampled), per room',
  );
  console.log(profileReport(summariseHeapProfile(heap), rooms, 'KiB/room', { scale: 1024, top: 25 }));
}

export async function run(): Promise<void> {
  const largest = Math.max(...SIZES);
  const processes = await startSimulatorProcesses(largest, PER_PROCESS, { passwords: { general: PASSWORD } });
  const simulators = processes.flatMap((child) => child.simulators);
  let broker: CountingBroker | undefined;
  let nodeRed: BenchNodeRed | undefined;
  try {
    broker = await startCountingBroker();
    nodeRed = await startBenchNodeRed();
    const bench: Run = { nodeRed, broker, processes };
    console.log(
      `room-template: one Node-RED child process, N rooms from examples/09's "conference room" subflow ` +
        `(own device and broker config node each, the device's audio interval as the example leaves it), ` +
        `simulators in ${processes.length} child process(es), aedes in the bench process; settle ` +
        `${SETTLE_SECONDS} s, window ${WINDOW_SECONDS} s`,
    );
    // Warm-up, not reported: V8 optimises the rooms' code paths by how often they run.
    await deployAndStream(bench, {
      simulators: simulators.slice(0, Math.min(...SIZES)),
      prefix: 'warmup',
      variant: 'room broker',
    });
    await delay(WARMUP_SECONDS * 1000);
    if (HEAP_PROFILE) {
      const { heap } = await measure(bench, {
        simulators,
        prefix: `p${largest}`,
        variant: 'room broker',
      });
      await nodeRed.deploy([]);
      if (heap !== undefined) printHeapProfile(largest, heap);
    } else {
      const samples: TemplateSample[] = [];
      for (const size of [0, ...SIZES]) {
        const rooms: RoomSet = {
          simulators: simulators.slice(0, size),
          prefix: `r${size}`,
          variant: 'room broker',
        };
        samples.push((await measure(bench, rooms)).sample);
      }
      const shared: RoomSet = { simulators, prefix: `s${largest}`, variant: 'shared broker' };
      samples.push((await measure(bench, shared)).sample);
      await nodeRed.deploy([]);
      console.log(templateReport(samples));
    }
    console.log(`  ${machineLine()}`);
    console.log('  reproduce: npm run build && node --require tsx/cjs bench/run.ts room-template');
  } finally {
    await stopAll([
      () => nodeRed?.stop(),
      () => broker?.close(),
      () => Promise.all(processes.map((child) => child.stop())),
    ]);
  }
}
