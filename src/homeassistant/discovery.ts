/**
 * Home Assistant discovery configs, one retained config per entity at
 * `<prefix>/<platform>/<device id>/<entity key>/config`, and the topics of each entity. Every topic and id
 * is built from safe ids (./ids); what the device names only appears as JSON string values.
 */
import { isJsonObject } from '../control/json';
import type { GroupState } from '../control/state-groups';
import type { Entity } from './entities';
import { displayName, entitySlug, safeId } from './ids';

/** Where one bridge publishes, as the node's properties and the device's identity give them. */
export interface BridgeTopics {
  /** The discovery prefix (`homeassistant`). */
  readonly prefix: string;
  /** The base topic of states, commands and availability (`conference-audio`). */
  readonly base: string;
  /** The device's id in topics and ids: its hardware id, made safe. */
  readonly device: string;
}

export interface DeviceIdentity {
  /** The name Home Assistant shows: the node's room name, or the device config node's name. */
  readonly name: string;
  /** The maker's word, as the device uses it. */
  readonly manufacturer: string;
  /** The device's web address. */
  readonly url: string;
}

export interface OriginInfo {
  readonly name: string;
  readonly version: string;
  readonly supportUrl: string;
}

/** The payloads of the two availability topics. */
export const ONLINE = 'online';
export const OFFLINE = 'offline';

export function deviceTopicId(hardwareId: string): string {
  return safeId(hardwareId);
}

export function stateTopic(topics: BridgeTopics, key: string): string {
  return `${topics.base}/${topics.device}/${key}/state`;
}

export function commandTopic(topics: BridgeTopics, key: string): string {
  return `${topics.base}/${topics.device}/${key}/set`;
}

/** The device connection's availability, which the node sets. */
export function deviceAvailabilityTopic(topics: BridgeTopics): string {
  return `${topics.base}/${topics.device}/availability`;
}

/** Node-RED's own availability: the node sets it online, the broker node's will and close message offline. */
export function bridgeAvailabilityTopic(base: string): string {
  return `${base}/status`;
}

/** Home Assistant's birth and will topic, on which `online` asks for every config again. */
export function homeAssistantStatusTopic(prefix: string): string {
  return `${prefix}/status`;
}

export function configTopic(topics: BridgeTopics, entity: Pick<Entity, 'platform' | 'key'>): string {
  return `${topics.prefix}/${entity.platform}/${topics.device}/${entity.key}/config`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? displayName(value) : undefined;
}

/** The `device` block: one device for every entity, identified by its hardware id. */
export function deviceBlock(
  topics: BridgeTopics,
  identity: DeviceIdentity,
  hardware: GroupState | undefined,
): Record<string, unknown> {
  const block: Record<string, unknown> = {
    identifiers: [`conference_audio_${topics.device}`],
    name: displayName(identity.name) || topics.device,
    manufacturer: displayName(identity.manufacturer),
  };
  const fields: Array<[string, unknown]> = [
    ['model', hardware?.model],
    ['sw_version', hardware?.firmwareVersion],
    ['hw_version', hardware?.deviceVersion],
    ['serial_number', hardware?.hardwareId],
  ];
  for (const [key, value] of fields) {
    const shown = text(value);
    if (shown !== undefined) block[key] = shown;
  }
  if (/^https?:\/\//.test(identity.url)) block.configuration_url = identity.url;
  return block;
}

/** The config of one entity; a button has no state topic, a sensor no command topic. */
export function entityConfig(
  topics: BridgeTopics,
  entity: Entity,
  device: Record<string, unknown>,
  origin: OriginInfo,
): Record<string, unknown> {
  const slug = entitySlug(String(device.name)) || `conference_audio_${entitySlug(topics.device)}`;
  const config: Record<string, unknown> = {
    name: entity.name,
    unique_id: `conference_audio_${topics.device}_${entity.key}`,
    default_entity_id: `${entity.platform}.${slug}_${entitySlug(entity.key, 60)}`,
    ...entity.options,
    availability: [
      {
        topic: bridgeAvailabilityTopic(topics.base),
        payload_available: ONLINE,
        payload_not_available: OFFLINE,
      },
      { topic: deviceAvailabilityTopic(topics), payload_available: ONLINE, payload_not_available: OFFLINE },
    ],
    availability_mode: 'all',
    device,
    origin: { name: origin.name, sw_version: origin.version, support_url: origin.supportUrl },
  };
  if (entity.hasState) config.state_topic = stateTopic(topics, entity.key);
  if (entity.command !== undefined) config.command_topic = commandTopic(topics, entity.key);
  return config;
}

/** Whether `hardware` carries the id the device's topics and ids are built from. */
export function hardwareIdOf(hardware: GroupState | undefined): string | undefined {
  if (!isJsonObject(hardware)) return undefined;
  const id = hardware.hardwareId;
  return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}
