/**
 * Commands from Home Assistant (an `mqtt in` node's messages) checked before anything goes to the device:
 * the entity a command topic names, and the control action its payload asks for. A bad value is an
 * INVALID_INPUT error, as at any control input.
 */

import type { ControlActionName } from '../control/actions';
import { invalidInput } from '../control/errors';
import { shown } from '../control/json';
import { type BridgeTopics, commandTopic } from './discovery';
import { type Entity, OFF, ON, PRESS } from './entities';

/** What a command runs: one control action, or volume steps towards a level (the device has no other way). */
export type CommandRun =
  | { readonly kind: 'action'; readonly action: ControlActionName; readonly value?: unknown }
  | { readonly kind: 'volume'; readonly target: number };

/** An MQTT payload as text: `mqtt in` hands over a string, a Buffer, or (auto-detected) a number or a boolean. */
export function payloadText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  if (typeof payload === 'number' || typeof payload === 'boolean') return String(payload);
  return undefined;
}

/** The entity whose command topic `topic` is, among `entities`; undefined when it is none of them. */
export function commandedEntity(
  topics: BridgeTopics,
  entities: readonly Entity[],
  topic: unknown,
): Entity | undefined {
  if (typeof topic !== 'string') return undefined;
  return entities.find(
    (entity) => entity.command !== undefined && commandTopic(topics, entity.key) === topic,
  );
}

/** Whether `topic` is under this device's topics (a command to an entity it does not have, or not yet). */
export function isDeviceTopic(topics: BridgeTopics, topic: unknown): boolean {
  return typeof topic === 'string' && topic.startsWith(`${topics.base}/${topics.device}/`);
}

/** The run a command payload asks of `entity`; throws INVALID_INPUT for a value the entity does not take. */
export function parseCommand(entity: Entity, payload: unknown): CommandRun {
  const command = entity.command;
  const value = payloadText(payload)?.trim();
  const wrong = (takes: string) => invalidInput(`${entity.name} takes ${takes}; got ${shown(payload)}`);
  switch (command?.kind) {
    case 'switch': {
      const word = value?.toUpperCase();
      if (word !== ON && word !== OFF) throw wrong(`${ON} or ${OFF}`);
      return { kind: 'action', action: command.action, value: word === ON };
    }
    case 'volume': {
      const level = value === undefined || value === '' ? Number.NaN : Number(value);
      if (!Number.isInteger(level) || level < command.min || level > command.max)
        throw wrong(`a whole number from ${command.min} to ${command.max}`);
      return { kind: 'volume', target: level };
    }
    case 'profile': {
      const profile = command.profiles.find((known) => known.name === value);
      if (profile === undefined)
        throw wrong(`one of ${command.profiles.map((known) => JSON.stringify(known.name)).join(', ')}`);
      return { kind: 'action', action: 'profile', value: profile.profileId };
    }
    case 'press':
      if (value !== PRESS) throw wrong(PRESS);
      return { kind: 'action', action: command.action };
    case undefined:
      throw invalidInput(`${entity.name} takes no commands`);
  }
}
