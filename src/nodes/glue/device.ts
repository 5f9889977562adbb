import type { Node, NodeAPI, NodeStatus } from 'node-red';
import type { ConnectionState } from '../../api/types';
import type { DeviceConnection } from '../../device/connection';
import type { StreamCondition } from '../../device/stream-hub';
import { DeviceError } from '../../errors';

/** A node that uses a `conference-audio-device` config node. */
export interface DeviceUser extends Node {
  /**
   * Called when the device connection changes. Nodes without it get the
   * connection status as their own status.
   */
  onDeviceStatus?: (status: NodeStatus, state: ConnectionState | 'invalid') => void;
}

/** The `conference-audio-device` config node as its users see it. */
export interface DeviceConfigNode {
  register(user: DeviceUser): void;
  deregister(user: DeviceUser, done: () => void): void;
  /**
   * The connection to the device: its client, live streams and zones. Throws the DeviceError INVALID_CONFIG
   * when the config node's settings are invalid, and CLOSED once it was closed (a redeploy).
   */
  connection(): DeviceConnection;
  /** The status that currently describes the connection in the runtime's language. */
  readonly connectionStatus: NodeStatus;
  /** The config node's name, or its host when it has none: the default topic of live events. */
  readonly displayName: string;
  /** A stream condition as node status, in the user's language. */
  streamStatus(condition: StreamCondition): NodeStatus;
  /** A failed request's or read's error code as node status, in the device node's words for that fault. */
  faultStatus(code: string): NodeStatus;
}

export function isDeviceConfigNode(value: unknown): value is DeviceConfigNode {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<DeviceConfigNode>;
  return typeof candidate.register === 'function' && typeof candidate.connection === 'function';
}

export function findDevice(RED: NodeAPI, id: unknown): DeviceConfigNode | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  const node: unknown = RED.nodes.getNode(id);
  return isDeviceConfigNode(node) ? node : undefined;
}

export function noDeviceError(): DeviceError {
  return new DeviceError(
    'INVALID_CONFIG',
    'No device configured: choose a conference-audio-device config node',
  );
}

/**
 * Registers `user` with its device and deregisters it on close, or shows
 * "no device" when none is configured. Returns the device for input handling.
 */
export function useDevice(
  RED: NodeAPI,
  user: DeviceUser,
  deviceId: unknown,
  noDeviceStatusText: string,
): DeviceConfigNode | undefined {
  const device = findDevice(RED, deviceId);
  if (device === undefined) {
    user.status({ fill: 'red', shape: 'ring', text: noDeviceStatusText });
    return undefined;
  }
  device.register(user);
  user.on('close', (_removed: boolean, done: () => void) => {
    device.deregister(user, done);
  });
  return device;
}
