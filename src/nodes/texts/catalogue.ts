/** The package name, which is the first part of each node set's catalogue namespace. */
export const PACKAGE_NAME = '@conference-audio/node-red-local-api';

/**
 * The device config node's type. Its catalogue holds the texts every node shares (each error code's
 * summary), so the shared texts name it here and the device node's definition takes it from here.
 */
export const DEVICE_TYPE = 'conference-audio-device';

/** A catalogue lookup in the reader's language, as the runtime's and the editor's `RED._` do. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * A key of `type`'s catalogue with its node-set namespace, `<package>/<type>:<type>.<key>`: Node-RED loads
 * each node type's catalogue under its node set's namespace, and this form finds it from any node type,
 * in the runtime and in the editor.
 */
export function catalogueKey(type: string, key: string): string {
  return `${PACKAGE_NAME}/${type}:${type}.${key}`;
}

/**
 * Whether a lookup found a text: a missing key (or a catalogue not loaded) comes back as the key itself,
 * with or without its node-set namespace.
 */
export function isTranslated(text: string, key: string): boolean {
  return !text.endsWith(key.slice(key.indexOf(':') + 1));
}
