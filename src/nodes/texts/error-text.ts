import { catalogueKey, DEVICE_TYPE, isTranslated, type Translate } from './catalogue';

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
