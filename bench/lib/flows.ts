/** Node definitions the benchmarks deploy: a device on a hosted simulator, a fleet of them, its room zones node, a sink. */
import type { HostedSimulator } from './simulator-process';

type FlowNode = Record<string, unknown> & { id: string; type: string };
type Extra = Record<string, unknown>;

/** A device config node for a hosted simulator, its certificate pinned (the default TLS mode). */
export function pinnedDevice(id: string, simulator: HostedSimulator, extra: Extra = {}): FlowNode {
  const url = new URL(simulator.url);
  return {
    id,
    type: 'conference-audio-device',
    host: url.hostname,
    port: Number(url.port),
    account: 'general',
    tls: 'pin',
    fingerprint: simulator.fingerprint256,
    timeout: 10,
    ...extra,
  };
}

export interface FleetTab {
  /** The tab's id; each node is on it. */
  tab: string;
  label: string;
  /** Device `i` is `<devicePrefix>-<i>`, named `<deviceName> <i>`. */
  devicePrefix: string;
  deviceName: string;
  /** The devices' password; none for a simulator's blank one. */
  password?: string;
}

/**
 * A tab with one pinned device per simulator and, for each device, the node `nodeFor` makes: the fleets
 * the benchmarks deploy, which differ only in that node.
 */
export function deviceFleet(
  simulators: readonly HostedSimulator[],
  fleet: FleetTab,
  nodeFor: (device: string, index: number) => FlowNode,
): FlowNode[] {
  const flows: FlowNode[] = [{ id: fleet.tab, type: 'tab', label: fleet.label }];
  const credentials = fleet.password === undefined ? {} : { credentials: { password: fleet.password } };
  simulators.forEach((simulator, index) => {
    const device = `${fleet.devicePrefix}-${index}`;
    flows.push(
      pinnedDevice(device, simulator, { name: `${fleet.deviceName} ${index}`, ...credentials }),
      nodeFor(device, index),
    );
  });
  return flows;
}

/** A room zones node sending all zones in one message; read on input only unless `extra` says otherwise. */
export function zonesReader(id: string, tab: string, device: string, extra: Extra = {}): FlowNode {
  const reading = { output: 'all', interval: 0, onStart: false, topic: 'zones' };
  return { id, type: 'conference-audio-zones', z: tab, device, ...reading, wires: [[]], ...extra };
}

/** An inactive debug node: a message's arrival there is what is timed; the node does nothing with it. */
export function inactiveDebug(id: string, tab: string): FlowNode {
  const quiet = { active: false, tosidebar: false, console: false, complete: 'false' };
  return { id, type: 'debug', z: tab, ...quiet, wires: [] };
}
