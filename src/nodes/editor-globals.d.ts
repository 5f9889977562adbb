/**
 * What the Node-RED editor page offers every node's editor script: the `RED` object (jQuery's `$` comes
 * with @types/jquery), and the node type's `PALETTE`, whose members scripts/build.js writes in as literals
 * from the type's definition.ts (so an editor reads it as this global, never by importing it). Only the
 * editor code (tsconfig.editor.json) sees this file.
 */
import type { EditorRED } from 'node-red';
import type { Palette } from './palette';

declare global {
  const RED: EditorRED;
  const PALETTE: Palette;
}
