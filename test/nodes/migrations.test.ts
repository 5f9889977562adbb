import should from 'should';
import { latestVersion, type Migration, migrated, VERSION_PROPERTY } from '../../src/nodes/migrations';

/** A made-up node type's history: `release` went from seconds to milliseconds, then `wait` became `hold`. */
const HISTORY: readonly Migration[] = [
  { version: 1, migrate: (saved) => ({ ...saved, release: Number(saved.release) * 1000 }) },
  {
    version: 2,
    migrate: ({ wait, ...rest }) => ({ ...rest, hold: wait }),
  },
];

describe('nodes/migrations: versioned migrations of saved node properties', () => {
  it('runs every migration, in order, on a node saved before the first one (no version)', () => {
    should(migrated({ id: 'n1', type: 't', release: 5, wait: 800 }, HISTORY)).eql({
      id: 'n1',
      type: 't',
      release: 5000,
      hold: 800,
      [VERSION_PROPERTY]: 2,
    });
  });

  it('runs only the migrations newer than the version a node was saved in', () => {
    should(migrated({ release: 5000, wait: 800, [VERSION_PROPERTY]: 1 }, HISTORY)).eql({
      release: 5000,
      hold: 800,
      [VERSION_PROPERTY]: 2,
    });
  });

  it('leaves a node in the latest version, or saved by a later release, as it is', () => {
    const latest = { release: 5000, hold: 800, [VERSION_PROPERTY]: 2 };
    should(migrated(latest, HISTORY)).equal(latest);
    const later = { something: 'new', [VERSION_PROPERTY]: 3 };
    should(migrated(later, HISTORY)).equal(later);
  });

  it('does not change the saved properties it was given', () => {
    const saved = { release: 5, wait: 800 };
    migrated(saved, HISTORY);
    should(saved).eql({ release: 5, wait: 800 });
  });

  it('gives version 0, and changes nothing, for a node type without migrations', () => {
    should(latestVersion([])).equal(0);
    const saved = { release: 5 };
    should(migrated(saved, [])).equal(saved);
  });

  it('refuses a history whose versions do not count 1, 2, 3 in order', () => {
    const gap: Migration[] = [HISTORY[0] as Migration, { ...(HISTORY[1] as Migration), version: 3 }];
    should(() => migrated({}, gap)).throw(RangeError, {
      message: /Migration 2 says it migrates to version 3/,
    });
  });
});
