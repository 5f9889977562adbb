import { TYPE as DEVICE_TYPE } from '../conference-audio-device/definition';
import { catalogueKey } from './status';

/** Looks a catalogue key up in the reader's language, as the runtime's and the editor's `RED._` do. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * Whether a lookup found a text: a missing key (or a catalogue not loaded) comes back as the key itself,
 * with or without its node-set namespace.
 */
export function isTranslated(text: string, key: string): boolean {
  return !text.endsWith(key.slice(key.indexOf(':') + 1));
}

/**
 * An error's message as users read it: the summary of its code in their language (every code's summary is
 * in the device config node's catalogue), then the client's own detail (technical, English), as Node-RED's
 * core nodes do with system errors. The en-US template is the detail alone, so English messages read as
 * the client wrote them. Used by the runtime and by the editor.
 */
export function summarisedMessage(translate: Translate, error: { code: string; message: string }): string {
  const codeKey = catalogueKey(DEVICE_TYPE, `codes.${error.code}`);
  const summary = translate(codeKey);
  if (!isTranslated(summary, codeKey)) return error.message;
  return translate(catalogueKey(DEVICE_TYPE, 'errors.device'), { summary, detail: error.message });
}
