/**
 * Room profiles (device-control.md 1.10) as GET /api/v1/room/profiles reports them:
 * `{profiles: [{profileId, name, active}]}`. A profile is chosen by its id or its name.
 */
import { controlError } from './errors';
import { isJsonObject } from './json';
import type { GroupState } from './state-groups';

export interface RoomProfile {
  readonly profileId: string;
  readonly name: string;
  readonly active: boolean;
}

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

/** The profile an id or a name picks (an id first, as a name could look like another's id), or undefined. */
export function findProfile(group: GroupState | undefined, idOrName: string): RoomProfile | undefined {
  const profiles = readProfiles(group);
  return (
    profiles.find((profile) => profile.profileId === idOrName) ??
    profiles.find((profile) => profile.name === idOrName)
  );
}

/** NOT_FOUND for a profile the device does not have, listing the ones it has. */
export function profileNotFound(
  idOrName: string,
  group: GroupState | undefined,
): ReturnType<typeof controlError> {
  const names = readProfiles(group).map((profile) => profile.name);
  const has = names.length === 0 ? 'it has none' : `it has ${names.map((name) => `"${name}"`).join(', ')}`;
  return controlError('NOT_FOUND', `The device has no room profile "${idOrName}": ${has}`);
}
