/**
 * What the Home Assistant node follows of its device, in one place: the shared state, the room's zones
 * and the talker in them (the active zone), and the background noise. The only file of the node that
 * knows how the device connection offers these. No Node-RED import.
 */
import { MAX_TIMER_MS } from '../../api/settings-rules';
import type { StateGroupName, StateGroups } from '../../control';
import type { DeviceConnection } from '../../device/connection';
import { ActiveZoneTracker, ANY_ZONE_TYPE, readSoundLocation, withGeometry } from '../../zones';
import type { ZoneReadResult, ZoneWithGeometry } from '../../zones/types';
import { ACTIVE_ZONE_DEFAULTS } from '../conference-audio-active-zone/definition';

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

  const tracker = new ActiveZoneTracker<ZoneWithGeometry>({
    zoneType: ANY_ZONE_TYPE,
    holdMs: ACTIVE_ZONE_DEFAULTS.holdMs,
    releaseMs: ACTIVE_ZONE_DEFAULTS.releaseMs,
  });
  let hasZones = false;
  let releaseTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const labelOf = (zone: ZoneWithGeometry | null) =>
    zone === null ? null : zone.label !== '' ? zone.label : zone.id;
  const told = (change: { zone: ZoneWithGeometry | null } | undefined) => {
    if (change !== undefined && hasZones) feed.activeZone(labelOf(change.zone));
  };
  const scheduleRelease = () => {
    if (releaseTimer !== undefined || stopped) return;
    const deadline = tracker.nextDeadline();
    if (deadline === undefined) return;
    releaseTimer = setTimeout(
      () => {
        releaseTimer = undefined;
        told(tracker.tick(Date.now()));
        scheduleRelease();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now())),
    );
  };
  const applyZones = (read: ZoneReadResult) => {
    if (stopped) return;
    const had = hasZones;
    hasZones = read.zones.length > 0;
    const change = tracker.setZones(read.zones.map(withGeometry), Date.now());
    if (hasZones && (!had || change !== undefined)) feed.activeZone(labelOf(tracker.current.zone));
  };
  const loadZones = () =>
    connection.zones.cached().then(applyZones, (error: unknown) => {
      if (!stopped) feed.error(error);
    });

  keep(connection.zones.watch((zones) => (zones === undefined ? void loadZones() : applyZones(zones))));
  keep(
    connection.subscribeStream('data', {
      onEvent: (event) => {
        if (event.event === 'deviceMetrics') {
          const data = event.data as { backgroundNoise?: unknown } | null;
          const level = data?.backgroundNoise;
          if (typeof level === 'number' && Number.isFinite(level)) feed.noise(level);
          return;
        }
        if (event.event !== 'soundLocation' || !hasZones) return;
        const location = readSoundLocation(event.data);
        if (location === undefined) return;
        told(tracker.observe({ at: event.receivedAt, location }));
        scheduleRelease();
      },
    }),
  );
  void loadZones();
  return () => {
    stopped = true;
    clearTimeout(releaseTimer);
  };
}
