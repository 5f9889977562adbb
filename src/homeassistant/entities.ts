/**
 * The Home Assistant entities a device has, from its state as the device reports it: what a model or a
 * firmware lacks is not in the list. Each entity's state is a plain value on its own topic; only the
 * active zone's comes as JSON, so that "no zone" can be JSON null under a fixed key of ours.
 */
import { compareFirmware, parseFirmwareVersion } from '../control/firmware';
import { isJsonObject } from '../control/json';
import { type RoomProfile, readProfiles } from '../control/profiles';
import type { StateGroups } from '../control/state-groups';
import { displayName, safeId } from './ids';

export const PLATFORMS = ['switch', 'number', 'select', 'button', 'binary_sensor', 'sensor'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type SwitchAction = 'microphoneMute' | 'audienceMute' | 'cameraSwitcher';

/** What a command to an entity does. */
export type EntityCommand =
  | { readonly kind: 'switch'; readonly action: SwitchAction }
  | { readonly kind: 'volume'; readonly min: number; readonly max: number }
  | { readonly kind: 'profile'; readonly profiles: readonly RoomProfile[] }
  | { readonly kind: 'press'; readonly action: 'identify' | 'calibrate' };

export interface Entity {
  /** Its id within the device: one topic level, from `[a-z0-9_-]`. */
  readonly key: string;
  readonly platform: Platform;
  /** Its own name; Home Assistant puts the device's name before it. */
  readonly name: string;
  /** The platform's options beyond topics and ids (device_class, unit, range, options). */
  readonly options: Readonly<Record<string, unknown>>;
  /** False for a button, which has no state topic. */
  readonly hasState: boolean;
  /** The state payload; undefined while it is not known. */
  readonly state?: string;
  readonly command?: EntityCommand;
}

/** What the node knows of the device beyond its state groups. */
export interface DeviceFacts {
  readonly groups: StateGroups;
  /** The active zone's label; null: no zone is active; undefined: the room's zones are not known. */
  readonly activeZone?: string | null;
  /** The last background noise reading, in dB. */
  readonly backgroundNoise?: number;
  /** The highest volume seen so far: the device reports no range, and one above 20 means 0 to 100. */
  readonly highestVolume?: number;
}

/** Home Assistant reads the text `None` as "unknown", for binary sensors and sensors alike. */
export const UNKNOWN_STATE = 'None';
export const ON = 'ON';
export const OFF = 'OFF';
export const PRESS = 'PRESS';
/** The fixed key of the active zone's JSON state, which its value template reads. */
export const ZONE_KEY = 'zone';

const DIAGNOSTIC = { entity_category: 'diagnostic' } as const;
const CONFIG = { entity_category: 'config' } as const;
const IDENTIFY_FLOOR = parseFirmwareVersion('1.8') ?? [1, 8, 0];
/** The speaker bar ports of each model, so that an unplugged bar stays an entity that says so. */
const BAR_PORTS: Readonly<Record<string, readonly number[]>> = { hdl310: [1], hdl410: [1, 2] };

const onOff = (value: boolean) => (value ? ON : OFF);

function connectivity(status: unknown): string {
  if (status === 'connected') return ON;
  if (status === 'disconnected') return OFF;
  return UNKNOWN_STATE;
}

/** The volume range: 0 to 20 until a higher volume was seen (the sources disagree: 20 or 100). */
export function volumeMax(highestVolume: number | undefined): number {
  return highestVolume !== undefined && highestVolume > 20 ? 100 : 20;
}

function switchEntity(key: string, name: string, action: SwitchAction, on: boolean, config = false): Entity {
  return {
    key,
    platform: 'switch',
    name,
    options: config ? { ...CONFIG } : {},
    hasState: true,
    state: onOff(on),
    command: { kind: 'switch', action },
  };
}

function audioEntities(facts: DeviceFacts): Entity[] {
  const audio = facts.groups.audio;
  if (audio === undefined) return [];
  const entities: Entity[] = [];
  if (typeof audio.microphoneMute === 'boolean')
    entities.push(switchEntity('microphone_mute', 'Microphone mute', 'microphoneMute', audio.microphoneMute));
  if (typeof audio.audienceMute === 'boolean')
    entities.push(switchEntity('audience_mute', 'Audience mute', 'audienceMute', audio.audienceMute));
  if (Number.isInteger(audio.speakerVolume)) {
    const volume = audio.speakerVolume as number;
    const max = volumeMax(Math.max(volume, facts.highestVolume ?? 0));
    entities.push({
      key: 'speaker_volume',
      platform: 'number',
      name: 'Speaker volume',
      options: { min: 0, max, step: 1, mode: 'slider' },
      hasState: true,
      state: String(volume),
      command: { kind: 'volume', min: 0, max },
    });
  }
  return entities;
}

function hardwareEntities(facts: DeviceFacts): Entity[] {
  const hardware = facts.groups.hardware;
  if (hardware === undefined) return [];
  const entities: Entity[] = [];
  const firmware = typeof hardware.firmwareVersion === 'string' ? hardware.firmwareVersion : undefined;
  const version = firmware === undefined ? undefined : parseFirmwareVersion(firmware);
  if (version !== undefined && compareFirmware(version, IDENTIFY_FLOOR) >= 0) {
    entities.push({
      key: 'identify',
      platform: 'button',
      name: 'Identify',
      options: { device_class: 'identify', payload_press: PRESS },
      hasState: false,
      command: { kind: 'press', action: 'identify' },
    });
  }
  entities.push({
    key: 'calibrate',
    platform: 'button',
    name: 'Calibrate',
    options: { ...CONFIG, payload_press: PRESS },
    hasState: false,
    command: { kind: 'press', action: 'calibrate' },
  });
  if (firmware !== undefined) {
    entities.push({
      key: 'firmware',
      platform: 'sensor',
      name: 'Firmware',
      options: { ...DIAGNOSTIC },
      hasState: true,
      state: displayName(firmware),
    });
  }
  const components = Array.isArray(hardware.hardwareComponents) ? hardware.hardwareComponents : [];
  const connectedPorts = components
    .filter(isJsonObject)
    .filter((part) => typeof part.model === 'string' && part.model.toLowerCase() === 'bar')
    .map((part) => part.portNumber)
    .filter(
      (port): port is number => Number.isInteger(port) && (port as number) >= 0 && (port as number) < 100,
    );
  const model = typeof hardware.model === 'string' ? hardware.model.toLowerCase() : '';
  const ports = [...new Set([...(BAR_PORTS[model] ?? []), ...connectedPorts])].sort((a, b) => a - b);
  for (const port of ports) {
    entities.push({
      key: `bar_${port}_connected`,
      platform: 'binary_sensor',
      name: `Speaker bar ${port} connected`,
      options: { device_class: 'connectivity', ...DIAGNOSTIC },
      hasState: true,
      state: onOff(connectedPorts.includes(port)),
    });
  }
  return entities;
}

function statusEntities(facts: DeviceFacts): Entity[] {
  const status = facts.groups.status;
  if (status === undefined) return [];
  const entities: Entity[] = [
    {
      key: 'calibrating',
      platform: 'binary_sensor',
      name: 'Calibrating',
      options: { device_class: 'running', ...DIAGNOSTIC },
      hasState: true,
      state: onOff(status.calibrating === true),
    },
  ];
  if (isJsonObject(status.usb)) {
    entities.push({
      key: 'usb_connected',
      platform: 'binary_sensor',
      name: 'USB connected',
      options: { device_class: 'connectivity', ...DIAGNOSTIC },
      hasState: true,
      state: connectivity(status.usb.status),
    });
  }
  if (isJsonObject(status.deviceComponents)) {
    entities.push({
      key: 'components_connected',
      platform: 'binary_sensor',
      name: 'Components connected',
      options: { device_class: 'connectivity', ...DIAGNOSTIC },
      hasState: true,
      state: connectivity(status.deviceComponents.status),
    });
  }
  if (isJsonObject(status.leds)) {
    for (const [led, light] of Object.entries(status.leds)) {
      if (!isJsonObject(light)) continue;
      const colour = typeof light.colour === 'string' ? light.colour : '';
      const state = typeof light.state === 'string' ? light.state : '';
      entities.push({
        key: `led_${safeId(led)}`,
        platform: 'sensor',
        name: `LED ${displayName(led)}`,
        options: { ...DIAGNOSTIC },
        hasState: true,
        state: state === 'off' || state === '' ? 'off' : displayName(`${colour} ${state}`),
      });
    }
  }
  return entities;
}

function roomEntities(facts: DeviceFacts): Entity[] {
  const entities: Entity[] = [];
  const switcher = facts.groups.cameraSwitcher;
  if (switcher !== undefined && typeof switcher.enabled === 'boolean')
    entities.push(
      switchEntity('camera_switcher', 'Camera switcher', 'cameraSwitcher', switcher.enabled, true),
    );
  // Names as Home Assistant shows and sends them back: cleaned, so that a command matches its option.
  const profiles = readProfiles(facts.groups.profiles).map((profile) => ({
    ...profile,
    name: displayName(profile.name),
  }));
  if (profiles.length > 0) {
    const active = profiles.find((profile) => profile.active);
    entities.push({
      key: 'room_profile',
      platform: 'select',
      name: 'Room profile',
      options: { options: profiles.map((profile) => profile.name) },
      hasState: true,
      state: active === undefined ? UNKNOWN_STATE : active.name,
      command: { kind: 'profile', profiles },
    });
  }
  if (facts.activeZone !== undefined) {
    entities.push({
      key: 'active_zone',
      platform: 'sensor',
      name: 'Active zone',
      options: { value_template: `{{ value_json.${ZONE_KEY} }}` },
      hasState: true,
      state: JSON.stringify({ [ZONE_KEY]: facts.activeZone === null ? null : displayName(facts.activeZone) }),
    });
  }
  if (facts.backgroundNoise !== undefined) {
    entities.push({
      key: 'background_noise',
      platform: 'sensor',
      name: 'Background noise',
      options: { device_class: 'sound_pressure', unit_of_measurement: 'dB', state_class: 'measurement' },
      hasState: true,
      state: String(facts.backgroundNoise),
    });
  }
  return entities;
}

/** Every entity the device has, in a fixed order. */
export function deviceEntities(facts: DeviceFacts): Entity[] {
  return [
    ...audioEntities(facts),
    ...roomEntities(facts),
    ...hardwareEntities(facts),
    ...statusEntities(facts),
  ];
}
