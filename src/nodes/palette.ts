/**
 * Where a palette node type sits in the editor: the package's category and colour, the type's icon and
 * ports, and the label keys every palette node sets. Each type's definition.ts exports its `PALETTE`; an
 * editor writes `...paletteEntry(labels)` in its `registerType`, and scripts/build.js writes that out as
 * plain keys (the facts as literals, each label as `labels.<key>`), because the flow library reads the
 * definition from the built HTML without running it and stops at a spread. No Node-RED, no DOM: the build
 * loads the compiled module.
 */

/** The palette category of every node type but the config node (its label is in src/nodes/locales). */
export const PALETTE_CATEGORY = 'conference audio';
/** The colour of every palette node of the package. */
export const PALETTE_COLOUR = '#8CC8E8';

/** The registerType keys of a palette node's labels, each taken from the editor's `paletteLabels`. */
export const PALETTE_LABEL_KEYS = [
  'paletteLabel',
  'inputLabels',
  'outputLabels',
  'label',
  'labelStyle',
] as const;
export type PaletteLabelKey = (typeof PALETTE_LABEL_KEYS)[number];

export interface Palette {
  readonly category: string;
  readonly color: string;
  /** icons/<type>.svg, which the build puts where the editor asks for it. */
  readonly icon: string;
  readonly inputs: 0 | 1;
  readonly outputs: number;
}

/** The palette facts of node type `type` with the given ports. */
export function palette(type: string, ports: { inputs: 0 | 1; outputs: number }): Palette {
  return {
    category: PALETTE_CATEGORY,
    color: PALETTE_COLOUR,
    icon: `${type}.svg`,
    inputs: ports.inputs,
    outputs: ports.outputs,
  };
}
