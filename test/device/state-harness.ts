/** A device connection to the simulator and a recording subscriber, for the device state tests. */
import type { GroupState, StateGroupName, StateGroups } from '../../src/control';
import type { DeviceConnection } from '../../src/device/connection';
import type { DeviceState } from '../../src/device/state';
import { type DeviceSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';
import { type ConnectOptions, connectTo } from './connect';

export const PASSWORD = 'State-Test-Pw-1';

/** One change a subscriber heard. */
export interface HeardChange {
  group: StateGroupName;
  next: GroupState;
  previous: GroupState | null;
  changed: string[];
}

/** What one subscriber heard, and the function that ends its subscription. */
export interface Follower {
  changes: HeardChange[];
  completions: StateGroups[];
  readErrors: Array<{ group: StateGroupName; error: unknown }>;
  unsubscribe: () => void;
  /** The changes of one group. */
  of(group: StateGroupName): HeardChange[];
}

/** Follows `groups` of the state (every group when not given). */
export function follow(state: DeviceState, groups?: readonly StateGroupName[]): Follower {
  const changes: HeardChange[] = [];
  const completions: StateGroups[] = [];
  const readErrors: Follower['readErrors'] = [];
  const unsubscribe = state.subscribe({
    ...(groups === undefined ? {} : { groups }),
    onChange: (group, next, previous, changed) => changes.push({ group, next, previous, changed }),
    onComplete: (groups) => completions.push(groups),
    onReadError: (group, error) => readErrors.push({ group, error }),
  });
  return {
    changes,
    completions,
    readErrors,
    unsubscribe,
    of: (group) => changes.filter((change) => change.group === group),
  };
}

type StateOptions = Pick<
  ConnectOptions,
  'audioIntervalSeconds' | 'stateResyncIntervalMs' | 'stateSteadyResyncIntervalMs' | 'streamIdleTimeoutMs'
>;

/**
 * A simulator per test and connections to it, all closed after the test. Audio is never polled and the
 * resync waits its minute unless a test asks otherwise, so that request counts are the test's own. A test
 * that sets the resync interval gets it as it is, not stretched while the change stream is steady,
 * unless it sets the steady interval too.
 */
export function useStateHarness(simulatorOptions: SimulatorOptions = {}) {
  const opened: DeviceConnection[] = [];
  const harness = {
    sim: undefined as unknown as DeviceSimulator,
    connect(options: StateOptions & { account?: 'general' | 'admin'; password?: string } = {}) {
      const connection = connectTo(harness.sim, {
        password: options.password ?? PASSWORD,
        account: options.account ?? 'general',
        audioIntervalSeconds: options.audioIntervalSeconds ?? 0,
        ...(options.streamIdleTimeoutMs === undefined
          ? {}
          : { streamIdleTimeoutMs: options.streamIdleTimeoutMs }),
        ...(options.stateResyncIntervalMs === undefined
          ? {}
          : {
              stateResyncIntervalMs: options.stateResyncIntervalMs,
              stateSteadyResyncIntervalMs:
                options.stateSteadyResyncIntervalMs ?? options.stateResyncIntervalMs,
            }),
      });
      opened.push(connection);
      return connection;
    },
    /** GETs of `path` the simulator answered since the last `resetRecords`. */
    reads(path: string): number {
      return harness.sim.requests.filter((request) => request.method === 'GET' && request.path === path)
        .length;
    },
    /** Follows the state and waits for the first complete reading. */
    async followed(state: DeviceState, groups?: readonly StateGroupName[]): Promise<Follower> {
      const follower = follow(state, groups);
      await until(() => follower.completions.length > 0, 'the first complete reading');
      return follower;
    },
  };
  beforeEach(async () => {
    harness.sim = await startSimulator({ port: 0, passwords: { general: PASSWORD }, ...simulatorOptions });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connection) => connection.close()));
    await harness.sim.close();
  });
  return harness;
}
