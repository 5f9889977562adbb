/**
 * The device state node's properties: the groups it can follow, its output modes, the defaults, and how a
 * saved node's choice is read. Imported by the runtime and by the editor (no Node-RED, no DOM).
 */
import { STATE_GROUPS, type StateGroupName } from '../../control/state-groups';
import { palette } from '../palette';
import type { Setting } from '../settings/node-settings';

export const TYPE = 'conference-audio-state';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

export { STATE_GROUPS, type StateGroupName };

/** `changes`: one message per group that changed; `all`: one message with every chosen group. */
export const OUTPUT_MODES = ['changes', 'all'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export const STATE_DEFAULTS = {
  groups: STATE_GROUPS,
  output: 'changes',
} as const satisfies { groups: readonly StateGroupName[]; output: OutputMode };

/** The last topic level of an `all` message (a `changes` message ends in its group's name). */
export const ALL_TOPIC_LEVEL = 'state';

function isGroup(name: string): name is StateGroupName {
  return (STATE_GROUPS as readonly string[]).includes(name);
}

/**
 * The groups a state node follows: an array of names (the editor's form) or a comma-separated text (a
 * hand-written flow), in the order of STATE_GROUPS. Absent: every group. Unknown names and an empty
 * choice are reasons.
 */
export function readStateGroups(value: unknown): Setting<StateGroupName[]> {
  const every = [...STATE_DEFAULTS.groups];
  if (value === undefined || value === null) return { ok: true, value: every };
  const listed = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (listed === undefined)
    return { ok: false, fallback: every, reason: 'groups must be a list of group names' };
  const names = listed
    .map((name) => (typeof name === 'string' ? name.trim() : ''))
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isGroup(name));
  const chosen = STATE_GROUPS.filter((group) => names.includes(group));
  if (unknown.length > 0 || chosen.length === 0) {
    const reason =
      unknown.length > 0
        ? `unknown group ${unknown.map((name) => `"${name}"`).join(', ')}: choose from ${STATE_GROUPS.join(', ')}`
        : `no group chosen: choose from ${STATE_GROUPS.join(', ')}`;
    return { ok: false, fallback: chosen.length > 0 ? chosen : every, reason };
  }
  return { ok: true, value: chosen };
}

export function readOutputMode(value: unknown): OutputMode {
  return OUTPUT_MODES.find((known) => known === value) ?? STATE_DEFAULTS.output;
}
