/**
 * Where a palette node type sits in the editor: the package's category and colour, the type's icon and
 * ports. Each type's definition.ts exports its `PALETTE`; scripts/build.js writes its members into the
 * editor's `registerType` as literals (`PALETTE.category` and so on), because the flow library reads these
 * facts from the built HTML without running it. No Node-RED, no DOM: the build loads the compiled module.
 */

/** The palette category of every node type but the config node (its label is in src/nodes/locales). */
export const PALETTE_CATEGORY = 'conference audio';
/** The colour of every palette node of the package. */
export const PALETTE_COLOUR = '#8CC8E8';

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
