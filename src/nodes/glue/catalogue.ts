import type { NodeAPI } from 'node-red';
import type { Translate } from '../texts/catalogue';

/** A node type's catalogue in the runtime's language: `RED._` with the type's key prefix. */
export function runtimeCatalogue(RED: NodeAPI, type: string): Translate {
  return (key, params) => RED._(`${type}.${key}`, params);
}
