import should from 'should';
import {
  type ActiveZoneChange,
  ActiveZoneTracker,
  MIN_RELEASE_MS,
  READING_INTERVAL_MS,
  readSoundLocation,
  type SoundLocation,
} from '../../src/zones';
import type { Zone } from '../../src/zones/types';

function zone(id: string, x1: number, x2: number, types: string[] = ['Switching']): Zone {
  return { id, label: id, types, geometry: { point1: { x: x1, y: 0 }, point2: { x: x2, y: 1000 } } };
}

const left = zone('left', 0, 1000);
const right = zone('right', 2000, 3000);
const desk = zone('desk', 4000, 5000, ['Presence']);

/** A voiced reading at `x` (y 500), optionally naming the zone the device considers triggered. */
function at(x: number, triggered?: string): SoundLocation {
  return {
    azimuth: 10,
    powerLevel: 40,
    time: '2026-01-01T00:00:00Z',
    coordinates: { x, y: 500 },
    triggeredZoneIds: triggered === undefined ? [] : [triggered],
    voiceDetected: true,
  };
}

const silent: SoundLocation = { ...at(500), powerLevel: 0, voiceDetected: false };

function tracker(options: Partial<{ zoneType: string; holdMs: number; releaseMs: number }> = {}) {
  const created = new ActiveZoneTracker<Zone>({
    zoneType: 'Switching',
    holdMs: 1000,
    releaseMs: 5000,
    ...options,
  });
  created.setZones([left, right, desk], 0);
  return created;
}

/**
 * Readings of `location` every READING_INTERVAL_MS from `from` to `to` (both included), as a device sends
 * them, with a tick at every release deadline that falls between two readings (as the node's timer does).
 * Returns every change, in order.
 */
function talk(
  active: ActiveZoneTracker<Zone>,
  location: SoundLocation,
  from: number,
  to: number,
): Array<ActiveZoneChange<Zone>> {
  const changes: Array<ActiveZoneChange<Zone>> = [];
  for (let now = from; now <= to; now += READING_INTERVAL_MS) {
    const deadline = active.nextDeadline();
    if (deadline !== undefined && deadline < now) {
      const released = active.tick(deadline);
      if (released) changes.push(released);
    }
    const change = active.observe({ at: now, location });
    if (change) changes.push(change);
  }
  return changes;
}

describe('zones/active-zone', () => {
  it('makes a zone active once the talker has spoken in it for the hold time', () => {
    const active = tracker();
    should(talk(active, at(500), 0, 800)).eql([]);
    const change = active.observe({ at: 1000, location: at(500) });
    should(change?.zone?.id).equal('left');
    should(change?.previous).be.null();
    should(change?.reading?.at).equal(1000);
  });

  it('with hold 0 switches at the first reading', () => {
    const active = tracker({ holdMs: 0 });
    should(active.observe({ at: 0, location: at(2500) })?.zone?.id).equal('right');
  });

  it('keeps the active zone when the talker visits another zone for less than the hold time', () => {
    const active = tracker({ holdMs: 1000 });
    talk(active, at(500), 0, 1000);
    should(active.current.zone?.id).equal('left');
    should(active.observe({ at: 1200, location: at(2500) })).be.undefined();
    should(active.observe({ at: 1800, location: at(500) })).be.undefined();
    should(active.observe({ at: 2500, location: at(2500) })).be.undefined();
    should(active.current.zone?.id).equal('left');
  });

  it('moves from one zone to the next after the hold time, naming the previous one', () => {
    const active = tracker({ holdMs: 500 });
    active.observe({ at: 0, location: at(500) });
    active.observe({ at: 500, location: at(500) });
    active.observe({ at: 1000, location: at(2500) });
    const change = active.observe({ at: 1500, location: at(2500) });
    should(change?.zone?.id).equal('right');
    should(change?.previous?.id).equal('left');
  });

  it('releases to no zone after the release time of silence, told by a reading or by tick', () => {
    const active = tracker({ holdMs: 0, releaseMs: 5000 });
    active.observe({ at: 0, location: at(500) });
    should(active.observe({ at: 4999, location: silent })).be.undefined();
    should(active.nextDeadline()).equal(5000);
    should(active.tick(4999)).be.undefined();
    const change = active.tick(5000);
    should(change?.zone).be.null();
    should(change?.previous?.id).equal('left');
    should(active.nextDeadline()).be.undefined();
  });

  it('releases after the release time of talk outside every zone', () => {
    const active = tracker({ holdMs: 0, releaseMs: 2000 });
    active.observe({ at: 0, location: at(500) });
    should(active.observe({ at: 1000, location: at(1500) })).be.undefined();
    should(active.observe({ at: 2000, location: at(1500) })?.zone).be.null();
  });

  it('ignores silent readings: their coordinates never make a zone active', () => {
    const active = tracker({ holdMs: 0 });
    should(active.observe({ at: 0, location: { ...at(2500), powerLevel: 0 } })).be.undefined();
    should(active.observe({ at: 1, location: { ...at(2500), voiceDetected: false } })).be.undefined();
    should(active.current.zone).be.null();
  });

  it('speaking in the active zone again postpones the release', () => {
    const active = tracker({ holdMs: 0, releaseMs: 2000 });
    active.observe({ at: 0, location: at(500) });
    active.observe({ at: 1500, location: at(500) });
    should(active.tick(2500)).be.undefined();
    should(active.tick(3500)?.zone).be.null();
  });

  it('takes the zone the device names by id over the coordinates', () => {
    const active = tracker({ holdMs: 0 });
    // The coordinates say "left"; the device says "right": the device knows its own zones best.
    should(active.observe({ at: 0, location: at(500, 'right') })?.zone?.id).equal('right');
  });

  it('looks the coordinates up when the named zone is unknown or of another type', () => {
    const active = tracker({ holdMs: 0 });
    should(active.observe({ at: 0, location: at(500, 'no-such-zone') })?.zone?.id).equal('left');
    const presence = tracker({ holdMs: 0, zoneType: 'Presence' });
    should(presence.observe({ at: 0, location: at(4500, 'left') })?.zone?.id).equal('desk');
  });

  it('counts only zones of the chosen type, any type with "any", case aside', () => {
    const switching = tracker({ holdMs: 0 });
    should(switching.observe({ at: 0, location: at(4500) })).be.undefined();
    const any = tracker({ holdMs: 0, zoneType: 'any' });
    should(any.observe({ at: 0, location: at(4500) })?.zone?.id).equal('desk');
    const lower = tracker({ holdMs: 0, zoneType: 'presence' });
    should(lower.observe({ at: 0, location: at(4500) })?.zone?.id).equal('desk');
  });

  it('reads triggeredZones with type as an array and the id as the device spells it', () => {
    const location = readSoundLocation({
      azimuth: 0,
      powerLevel: 30,
      time: 't',
      coordinates: { x: 2500, y: 500 },
      triggeredZones: [{ type: ['Switching'], label: 'right', id: 'right' }],
      flags: { voiceDetected: true },
    });
    should(location?.triggeredZoneIds).eql(['right']);
    const active = tracker({ holdMs: 0 });
    should(active.observe({ at: 0, location: location as SoundLocation })?.zone?.id).equal('right');
  });

  it('never drops a reading because its time repeats', () => {
    const active = tracker({ holdMs: 200 });
    active.observe({ at: 0, location: at(500) });
    should(active.observe({ at: 200, location: at(500) })?.zone?.id).equal('left');
  });

  it('ends the answer at once when the active zone is deleted, and follows a relabelled one quietly', () => {
    const active = tracker({ holdMs: 0 });
    active.observe({ at: 0, location: at(500) });
    should(active.setZones([{ ...left, label: 'Stage' }, right], 100)).be.undefined();
    should(active.current.zone?.label).equal('Stage');
    const change = active.setZones([right], 200);
    should(change?.zone).be.null();
    should(change?.previous?.id).equal('left');
  });

  it('prefers the active zone where two zones of the type overlap', () => {
    const overlapping = zone('wide', 500, 2500);
    const active = new ActiveZoneTracker<Zone>({ zoneType: 'any', holdMs: 0, releaseMs: 5000 });
    active.setZones([left, overlapping], 0);
    active.observe({ at: 0, location: at(1500) });
    should(active.current.zone?.id).equal('wide');
    should(active.observe({ at: 100, location: at(800) })).be.undefined();
    should(active.current.zone?.id).equal('wide');
  });

  it('answers "no zone, none before" before any reading', () => {
    should(tracker().current).eql({ zone: null, previous: null, reading: undefined });
  });

  it('drops a zone waiting for the hold at silence: a cough, 1.4 s of silence and a cough do not switch', () => {
    const active = tracker({ holdMs: 1000 });
    talk(active, at(2500), 0, 1000);
    should(active.current.zone?.id).equal('right');
    should(active.observe({ at: 1200, location: at(500) })).be.undefined();
    should(talk(active, silent, 1400, 2600)).eql([]);
    should(active.observe({ at: 2800, location: at(500) })).be.undefined();
    should(active.current.zone?.id).equal('right');
  });

  it('drops a zone waiting for the hold when no reading comes for longer than a missed reading or two', () => {
    const active = tracker({ holdMs: 1000, releaseMs: 5000 });
    talk(active, at(2500), 0, 1000);
    should(active.observe({ at: 1200, location: at(500) })).be.undefined();
    // A muted microphone sends no readings at all: the gap is silence too.
    should(active.observe({ at: 2600, location: at(500) })).be.undefined();
    should(active.current.zone?.id).equal('right');
  });

  for (const releaseMs of [0, 100]) {
    it(`keeps a steady talker's zone with release ${releaseMs} ms: the gap between readings is not silence`, () => {
      const active = tracker({ holdMs: 0, releaseMs });
      const changes = talk(active, at(500), 0, 10_000);
      should(changes.map((change) => change.zone?.id ?? null)).eql(['left']);
    });
  }

  it('raises a release shorter than two missed readings to MIN_RELEASE_MS', () => {
    should(MIN_RELEASE_MS).be.above(2 * READING_INTERVAL_MS);
    const active = tracker({ holdMs: 0, releaseMs: 0 });
    active.observe({ at: 0, location: at(500) });
    should(active.nextDeadline()).equal(MIN_RELEASE_MS);
  });

  it('takes a new timing without losing the active zone: the release counts from the last reading heard', () => {
    const active = tracker({ holdMs: 0, releaseMs: 5000 });
    active.observe({ at: 0, location: at(500) });
    active.setTiming({ holdMs: 0, releaseMs: 2000 });
    should(active.current.zone?.id).equal('left');
    should(active.nextDeadline()).equal(2000);
    should(active.tick(2000)?.zone).be.null();
  });

  it('takes a new hold for a zone the talker is already waiting in', () => {
    const active = tracker({ holdMs: 5000 });
    active.observe({ at: 0, location: at(500) });
    active.setTiming({ holdMs: 400, releaseMs: 5000 });
    should(active.observe({ at: 400, location: at(500) })?.zone?.id).equal('left');
  });

  it('raises a new release below MIN_RELEASE_MS and refuses a negative one', () => {
    const active = tracker({ holdMs: 0 });
    active.observe({ at: 0, location: at(500) });
    active.setTiming({ holdMs: 0, releaseMs: 0 });
    should(active.nextDeadline()).equal(MIN_RELEASE_MS);
    should(() => active.setTiming({ holdMs: 0, releaseMs: -1 })).throw(/releaseMs/);
  });

  it('refuses a negative hold or release', () => {
    should(() => new ActiveZoneTracker({ zoneType: 'any', holdMs: -1, releaseMs: 0 })).throw(/holdMs/);
    should(() => new ActiveZoneTracker({ zoneType: 'any', holdMs: 0, releaseMs: Number.NaN })).throw(
      /releaseMs/,
    );
  });
});

describe('zones/sound-location', () => {
  it('reads a triggered zone by id or zoneId, a numbered id as its text, and skips entries that name none', () => {
    const location = readSoundLocation({
      triggeredZones: [{ id: 'a' }, { zoneId: 7 }, { id: '', zoneId: 'b' }, 'c', null, { label: 'd' }],
    });
    should(location?.triggeredZoneIds).eql(['a', '7', 'b']);
  });

  it('reads what it can of a partial reading and nothing of a non-object', () => {
    should(readSoundLocation('text')).be.undefined();
    should(readSoundLocation(null)).be.undefined();
    should(readSoundLocation({ powerLevel: 12 })).eql({
      azimuth: undefined,
      powerLevel: 12,
      time: undefined,
      coordinates: undefined,
      triggeredZoneIds: [],
      voiceDetected: undefined,
    });
  });
});
