/**
 * What the Home Assistant node follows of its device, in one place: the shared state, the room's zones
 * and the talker in them (the active zone), and the background noise. The only file of the node that
 * knows how the device connection offers these. No Node-RED import.
 */
import type { StateGroupName, StateGroups } from '../../control';
import { ActiveZoneFollower } from '../../device/active-zone-follower';
import type { DeviceConnection } from '../../device/connection';
import { ANY_ZONE_TYPE, DEFAULT_ACTIVE_ZONE_TIMING } from '../../zones';
import type { ZoneWithGeometry } from '../../zones/types';

/** The groups the entities are made from; the layout and the network are not needed. */
export const FOLLOWED_GROUPS: readonly StateGroupName[] = [
  'audio',
  'hardware',
  'status',
  'cameraSwitcher',
  'profiles',
];

export interface DeviceFeed {
  /** The followed groups as they stand, after any change. */
  groups(groups: StateGroups): void;
  /** The active zone's label (its id when it has none), or null; never called for a room without zones. */
  activeZone(label: string | null): void;
  /** A background noise reading in dB. */
  noise(level: number): void;
  /** A read of the zones failed (a room without zones is not an error: it has no active zone entity). */
  error(error: unknown): void;
}

/**
 * Follows the device for `feed` until the returned function is called. `keep` takes each subscription's
 * end, as the node's subscribeAfterDeploy hands it.
 */
export function followDevice(
  connection: DeviceConnection,
  feed: DeviceFeed,
  keep: (unsubscribe: () => void) => void,
): () => void {
  const state = connection.state;
  const groups = new Set(FOLLOWED_GROUPS);
  keep(
    state.subscribe({
      groups: FOLLOWED_GROUPS,
      onChange: () => feed.groups(state.current(groups)),
      onComplete: (current) => feed.groups(current),
    }),
  );

  let hasZones = false;
  const labelOf = (zone: ZoneWithGeometry | null) =>
    zone === null ? null : zone.label !== '' ? zone.label : zone.id;
  const follower = new ActiveZoneFollower(
    { zoneType: ANY_ZONE_TYPE, ...DEFAULT_ACTIVE_ZONE_TIMING },
    {
      onChange: (change) => {
        if (hasZones) feed.activeZone(labelOf(change.zone));
      },
      onZones: (zones) => {
        const had = hasZones;
        hasZones = zones.zones.length > 0;
        // Zones that appear say the answer at once; a change they make is told by onChange after this.
        if (hasZones && !had) feed.activeZone(labelOf(follower.current.zone));
      },
      onZonesError: (error) => feed.error(error),
    },
  );
  keep(follower.start(connection));
  keep(
    connection.subscribeStream('data', {
      onEvent: (event) => {
        if (event.event !== 'deviceMetrics') return;
        const data = event.data as { backgroundNoise?: unknown } | null;
        const level = data?.backgroundNoise;
        if (typeof level === 'number' && Number.isFinite(level)) feed.noise(level);
      },
    }),
  );
  return () => follower.close();
}
