import type { Node, NodeAPI, NodeStatus } from 'node-red';
import type { DeviceClient } from '../../api';
import type { ConnectionState } from '../../api/types';
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
export interface DeviceConnection {
  register(user: DeviceUser): void;
  deregister(user: DeviceUser, done: () => void): void;
  /** The shared client; throws the DeviceError INVALID_CONFIG when the config node's settings are invalid. */
  getClient(): DeviceClient;
  /** The status that currently describes the connection (its text a catalogue key: lib/status.ts). */
  readonly connectionStatus: NodeStatus;
}

export function isDeviceConnection(value: unknown): value is DeviceConnection {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<DeviceConnection>;
  return typeof candidate.register === 'function' && typeof candidate.getClient === 'function';
}

export function findDevice(RED: NodeAPI, id: unknown): DeviceConnection | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  const node: unknown = RED.nodes.getNode(id);
  return isDeviceConnection(node) ? node : undefined;
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
): DeviceConnection | undefined {
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
