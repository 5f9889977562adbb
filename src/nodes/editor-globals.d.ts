/**
 * What the Node-RED editor page offers every node's editor script: the `RED` object (jQuery's `$` comes
 * with @types/jquery). Only the editor code (tsconfig.editor.json) sees this file.
 */
import type { EditorRED } from 'node-red';

declare global {
  const RED: EditorRED;
}
