/**
 * Versioned migrations of a node type's saved properties. A flow keeps a node's properties as the editor
 * saved them for as long as its user keeps the flow, so a release that changes what a saved property
 * means (its unit, its name, its choices) must read what earlier releases saved.
 *
 * A node type that changes a saved property gets a `migrations.ts` in its folder, one entry per change,
 * numbered from 1 in the order they were made and never edited once released:
 *
 * ```ts
 * export const MIGRATIONS: readonly Migration[] = [
 *   // 0.2.0: `release` in milliseconds, was seconds.
 *   { version: 1, migrate: (saved) => ({ ...saved, release: Number(saved.release) * 1000 }) },
 * ];
 * ```
 *
 * - The runtime builds the node from `migrated(def, MIGRATIONS)`, not from `def`.
 * - The editor's definition has `propertiesVersion: { value: latestVersion(MIGRATIONS) }` in its
 *   defaults, so every node it saves says which version its properties are in; and it migrates a node
 *   as it is loaded or imported (`RED.events.on('nodes:add', ...)`, assigning `migrated(node, MIGRATIONS)`
 *   to it), so the dialog shows and saves the new form.
 * - A node saved without `propertiesVersion` was saved before the type's first migration: version 0.
 *
 * No node type has a migration yet: every property still means what the first release saved.
 * No Node-RED import, no DOM: the editors can use it too.
 */

/** The saved property that says which version a node's other properties are in. */
export const VERSION_PROPERTY = 'propertiesVersion';

export type SavedProperties = Readonly<Record<string, unknown>>;

export interface Migration {
  /** 1 for a type's first change of a saved property, then 2, 3, ...: the version it migrates to. */
  readonly version: number;
  /** The properties of the version before, as that version saved them, in this version's form. */
  readonly migrate: (saved: SavedProperties) => Record<string, unknown>;
}

/** The version a type's editor saves now: that of its last migration, 0 without any. */
export function latestVersion(migrations: readonly Migration[]): number {
  checkOrder(migrations);
  return migrations.length;
}

/** The version a node's properties are in: 0 when it says none (or says something that is not one). */
export function savedVersion(saved: SavedProperties): number {
  const version = saved[VERSION_PROPERTY];
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : 0;
}

/**
 * A node's saved properties in the latest version's form: each migration newer than the node's version
 * applied in turn, and the version recorded. A node saved by a later release than this one (its version
 * beyond the last migration) is left as it is: this release cannot know what changed. `saved` is not
 * changed.
 */
export function migrated<T extends SavedProperties>(saved: T, migrations: readonly Migration[]): T {
  const latest = latestVersion(migrations);
  let version = savedVersion(saved);
  if (version >= latest) return saved;
  let properties: Record<string, unknown> = { ...saved };
  for (const migration of migrations.slice(version)) {
    properties = { ...migration.migrate(properties), [VERSION_PROPERTY]: migration.version };
    version = migration.version;
  }
  return properties as T;
}

/** A list whose versions are not 1, 2, 3, ... is a mistake in the code, found at the first use. */
function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new RangeError(
        `Migration ${index + 1} says it migrates to version ${migration.version}: versions count 1, 2, 3, ... in order`,
      );
    }
  });
}
