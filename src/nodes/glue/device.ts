import type { Node, NodeAPI, NodeStatus } from 'node-red';
import type { DeviceClient } from '../../api';
import type { ConnectionState } from '../../api/types';
import { DeviceError } from '../../errors';
import type { ZoneReadResult } from '../../zones/types';
import type { StreamCondition, StreamKind, StreamSubscriber } from '../lib/stream-hub';

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
  /** The status that currently describes the connection (its text a catalogue key: plain/status.ts). */
  readonly connectionStatus: NodeStatus;
  /** The config node's name, or its host when it has none: the default topic of live events. */
  readonly displayName: string;
  /**
   * Joins the shared live stream of `kind`, opening it for the first subscriber; returns the function that
   * leaves it (the last one out closes it). Throws the DeviceError INVALID_CONFIG like `getClient`.
   */
  subscribeStream(kind: StreamKind, subscriber: StreamSubscriber): () => void;
  /** A stream condition as node status, in the user's language. */
  streamStatus(condition: StreamCondition): NodeStatus;
  /** The room's zones (with camera inputs where the layout maps them), through the config node's cache. */
  readZones(): Promise<ZoneReadResult>;
  /**
   * Calls `listener` when the change stream announces new zones, with them when the announcement carried
   * a readable list (undefined: read them). Opens the change stream; returns the function that stops.
   */
  watchZones(listener: (zones: ZoneReadResult | undefined) => void): () => void;
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
