/**
 * What the Node-RED editor page offers every node's editor script: the `RED` object (jQuery's `$` comes
 * with @types/jquery), and `paletteEntry`, which is no function at all: scripts/build.js writes each
 * `...paletteEntry(labels)` out as plain keys, the palette facts of the type's definition.ts as literals and
 * each of `labels`' keys by name (a call left in the bundle fails the build). Only the editor code
 * (tsconfig.editor.json) sees this file.
 */
import type { EditorRED } from 'node-red';
import type { Palette, PaletteLabelKey } from './palette';

declare global {
  const RED: EditorRED;
  function paletteEntry<Labels extends Record<PaletteLabelKey, unknown>>(labels: Labels): Palette & Labels;
}
