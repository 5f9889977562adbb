/**
 * Rooms from example 9's "conference room" subflow, built the way the rooms tests build them
 * (test/rooms/support.ts: one instance per room with HOST, PORT, ROOM and PASSWORD), on hosted simulators;
 * and the measuring variant with one broker connection for every room instead of one per room.
 */
import { roomsFlow } from '../../test/rooms/support';
import type { FlowNode } from './node-red-child';
import type { HostedSimulator } from './simulator-process';

export const SHARED_BROKER_ID = 'bench-shared-broker';

/** The name of the room at `index` of a set: its status topic and its instance's name. */
export const roomName = (prefix: string, index: number) => `${prefix}-${index}`;

/** One template instance per simulator, named by `roomName`, all on the broker at `brokerPort`. */
export function templateRooms(
  simulators: readonly HostedSimulator[],
  prefix: string,
  password: string,
  brokerPort: number,
): FlowNode[] {
  const rooms = simulators.map((simulator, index) => ({
    name: roomName(prefix, index),
    password,
    port: Number(new URL(simulator.url).port),
  }));
  return rooms.length === 0 ? [] : roomsFlow(rooms, brokerPort);
}

/**
 * The same flows with the subflow's own broker config node taken out: one broker config node at top
 * level that every instance's mqtt nodes use, so all rooms share one MQTT connection. It has no last
 * will and no close message: those name one room's status topic, which a shared connection cannot.
 */
export function withSharedBroker(flows: readonly FlowNode[], brokerPort: number): FlowNode[] {
  const subflowIds = new Set(flows.filter((node) => node.type === 'subflow').map((node) => node.id));
  const roomBrokers = flows.filter(
    (node) => node.type === 'mqtt-broker' && typeof node.z === 'string' && subflowIds.has(node.z),
  );
  const template = roomBrokers[0];
  if (template === undefined) throw new Error('the room template holds no broker config node');
  const { z: _inSubflow, ...settings } = template;
  const shared: FlowNode = {
    ...settings,
    id: SHARED_BROKER_ID,
    name: 'shared broker connection',
    broker: '127.0.0.1',
    port: String(brokerPort),
    closeTopic: '',
    closePayload: '',
    willTopic: '',
    willPayload: '',
  };
  const removed = new Set(roomBrokers.map((node) => node.id));
  return [
    ...flows
      .filter((node) => !removed.has(node.id))
      .map((node) =>
        typeof node.broker === 'string' && removed.has(node.broker)
          ? { ...node, broker: SHARED_BROKER_ID }
          : node,
      ),
    shared,
  ];
}
