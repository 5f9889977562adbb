/** Shared plumbing for the stream tests: a recorder of what a stream reports, and the budget drill. */
import type { DeviceEvent, EventStream, StreamState, StreamStateDetail } from '../../src/api';
import type { DeviceSimulator } from '../../src/simulator';
import { until } from '../support/wait';

/** Short reconnect delays keep the tests quick; the growth and the cap are what is checked. */
export const QUICK_RECONNECT = { reconnect: { initialMs: 20, maxMs: 200 } };

export interface Watched {
  events: DeviceEvent[];
  states: [StreamState, StreamStateDetail][];
  named(name: string): DeviceEvent[];
  failures(): string[];
}

/** Records every event and state change of `stream` from now on. */
export function watch(stream: EventStream): Watched {
  const events: DeviceEvent[] = [];
  const states: [StreamState, StreamStateDetail][] = [];
  stream.on('event', (event) => events.push(event));
  stream.on('state', (state, detail) => states.push([state, detail]));
  return {
    events,
    states,
    named: (name) => events.filter((event) => event.event === name),
    failures: () => states.flatMap(([, detail]) => (detail.error === undefined ? [] : [detail.error.code])),
  };
}

/**
 * Waits for each stream connection numbered `first` to `last` to open, and drops it. A budget drill
 * counts on a budget nobody spent yet: the harness gives each test a port no earlier test device had.
 */
export async function dropConnections(
  simulator: DeviceSimulator,
  first: number,
  last: number,
): Promise<void> {
  for (let connection = first; connection <= last; connection += 1) {
    await until(() => simulator.counters.streamConnections === connection, `connection ${connection}`);
    await until(() => simulator.openStreams === 1, `connection ${connection} open`);
    simulator.dropStreams();
  }
}

/** Resolves once the stream waits over a second to reconnect: the connect budget is spent. */
export function untilBudgetWait(seen: Watched): Promise<void> {
  return until(
    () => seen.states.some(([state, detail]) => state === 'reconnecting' && (detail.retryInMs ?? 0) > 1000),
    'a wait for the budget',
  );
}
