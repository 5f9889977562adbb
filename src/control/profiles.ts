/**
 * Room profiles (docs/device-api.md) as GET /api/v1/room/profiles reports them:
 * `{profiles: [{profileId, name, active}]}`. A flow picks one by its id, by its name, or by a bare word
 * that is tried as a name first and then as an id; a name two profiles share picks neither.
 */
import type { DeviceError } from '../errors';
import { controlError, invalidInput } from './errors';
import { isJsonObject, shown } from './json';
import type { GroupState } from './state-groups';

export interface RoomProfile {
  readonly profileId: string;
  readonly name: string;
  readonly active: boolean;
}

/** How a flow named the profile: `{id}`, `{name}`, or a bare word (`either`: a name first, then an id). */
export interface ProfileChoice {
  readonly by: 'id' | 'name' | 'either';
  readonly value: string;
}

/** The profile a choice picked, and which of its fields it matched. */
export interface PickedProfile {
  readonly profile: RoomProfile;
  readonly matchedBy: 'id' | 'name';
}

/** How many profile names a NOT_FOUND lists, and how much of each name (and of the one asked for). */
export const MAX_LISTED_PROFILES = 20;
export const MAX_QUOTED_PROFILE_NAME = 200;

/** The readable profiles of a profiles group or GET body; entries without an id are skipped. */
export function readProfiles(group: GroupState | undefined): RoomProfile[] {
  const list = group?.profiles;
  if (!Array.isArray(list)) return [];
  return list.filter(isJsonObject).flatMap((entry) =>
    typeof entry.profileId === 'string' && entry.profileId !== ''
      ? [
          {
            profileId: entry.profileId,
            name: typeof entry.name === 'string' ? entry.name : entry.profileId,
            active: entry.active === true,
          },
        ]
      : [],
  );
}

export function activeProfile(group: GroupState | undefined): RoomProfile | undefined {
  return readProfiles(group).find((profile) => profile.active);
}

function word(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The profile a message value asks for: a word (or a number), `{id}` or `{name}`; undefined for anything
 * else, including an object with both or with other keys.
 */
export function parseProfileChoice(value: unknown): ProfileChoice | undefined {
  if (!isJsonObject(value)) {
    const bare = word(value);
    return bare === undefined ? undefined : { by: 'either', value: bare };
  }
  const keys = Object.keys(value);
  const key = keys[0];
  if (keys.length !== 1 || (key !== 'id' && key !== 'name')) return undefined;
  const chosen = word(value[key]);
  return chosen === undefined ? undefined : { by: key, value: chosen };
}

function cut(text: string): string {
  return text.length <= MAX_QUOTED_PROFILE_NAME ? text : `${text.slice(0, MAX_QUOTED_PROFILE_NAME)}…`;
}

function byName(profiles: RoomProfile[], name: string): RoomProfile | undefined {
  const named = profiles.filter((profile) => profile.name === name);
  if (named.length > 1) {
    throw invalidInput(
      `${named.length} room profiles are named "${cut(name)}" (ids ${named.map((profile) => shown(profile.profileId)).join(', ')}): choose one with {"id": …}`,
    );
  }
  return named[0];
}

/**
 * The profile a choice picks, or undefined. Throws INVALID_INPUT when the name it gives (or, for a bare
 * word, the name it is tried as first) is shared by several profiles.
 */
export function pickProfile(group: GroupState | undefined, choice: ProfileChoice): PickedProfile | undefined {
  const profiles = readProfiles(group);
  if (choice.by !== 'id') {
    const named = byName(profiles, choice.value);
    if (named !== undefined) return { profile: named, matchedBy: 'name' };
    if (choice.by === 'name') return undefined;
  }
  const withId = profiles.find((profile) => profile.profileId === choice.value);
  return withId === undefined ? undefined : { profile: withId, matchedBy: 'id' };
}

/** The profile a bare id or name picks (a name first), or undefined; throws for a shared name. */
export function findProfile(group: GroupState | undefined, idOrName: string): RoomProfile | undefined {
  return pickProfile(group, { by: 'either', value: idOrName })?.profile;
}

/** How a choice reads in a message: the word, or the field it names. */
export function describeChoice(choice: ProfileChoice): string {
  const quoted = `"${cut(choice.value)}"`;
  return choice.by === 'either' ? quoted : `with ${choice.by} ${quoted}`;
}

/** NOT_FOUND for a profile the device does not have, listing (some of) the ones it has. */
export function profileNotFound(choice: ProfileChoice | string, group: GroupState | undefined): DeviceError {
  const asked = typeof choice === 'string' ? { by: 'either' as const, value: choice } : choice;
  const names = readProfiles(group).map((profile) => `"${cut(profile.name)}"`);
  const listed = names.slice(0, MAX_LISTED_PROFILES).join(', ');
  const more = names.length > MAX_LISTED_PROFILES ? ` and ${names.length - MAX_LISTED_PROFILES} more` : '';
  const has = names.length === 0 ? 'it has none' : `it has ${listed}${more}`;
  return controlError('NOT_FOUND', `The device has no room profile ${describeChoice(asked)}: ${has}`);
}
