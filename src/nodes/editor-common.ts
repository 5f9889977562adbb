/**
 * What every node type's editor code shares: the catalogue lookup, the error text in the editor's
 * language, the labels of a palette node, and validators in the form Node-RED takes a reason from.
 * Bundled into each node type's HTML by scripts/build.js; browser code, no Node.js API.
 */
import type { EditorNodeInstance, EditorNodeProperties } from 'node-red';
import type { PaletteLabelKey } from './palette';
import { catalogueKey, type Translate } from './texts/catalogue';
import { summarisedMessage } from './texts/error-text';

/** The config node type that a palette node's `device` property names. */
export { DEVICE_TYPE, isTranslated, type Translate } from './texts/catalogue';

/**
 * A node type's catalogue. Node-RED loads it under the package's node-set namespace
 * (`<package>/<type>:`), not the editor's own, so every key carries that namespace.
 */
export function catalogue(type: string): Translate {
  return (key, params) => RED._(catalogueKey(type, key), params);
}

/** An error as the admin endpoints answer it. */
export interface AnsweredError {
  code: string;
  message: string;
}

/** The runtime answers in English: the code's summary in the editor's language leads, as at runtime. */
export function localisedMessage(error: AnsweredError): string {
  return summarisedMessage((key, params) => RED._(key, params), error);
}

/**
 * A property validator as Node-RED runs it: a returned string is the reason shown in the dialog. Node-RED
 * takes the string as the reason only from a function declaring two parameters (from one with a single
 * parameter any string counts as valid), hence the unused `_options`; @types/node-red knows only booleans.
 */
export type Validator = (this: unknown, value: unknown, _options?: unknown) => true | string;

/**
 * `check` (undefined: valid; else the reason) as a validator of Node-RED's form; `this` is the node (or
 * the dialog's node while editing), as Node-RED calls it.
 */
export function validator(
  check: (this: unknown, value: unknown) => string | undefined,
): (value: string) => boolean {
  const validate: Validator = function (this: unknown, value, _options) {
    return check.call(this, value) ?? true;
  };
  return validate as unknown as (value: string) => boolean;
}

/** Node properties every palette node has: a name, which takes the place of the label when set. */
export interface NamedProperties extends EditorNodeProperties {
  name: string;
}

/**
 * The labels of a palette node type, each a value for the registerType key of the same name: the palette
 * and port labels from its catalogue (`paletteLabel`, `label.inputLabel`, `label.outputLabel`), the node's
 * name in italics in place of the palette label. A type with labels of its own passes them in `own`.
 */
export function paletteLabels<P extends NamedProperties>(
  t: Translate,
  own: {
    outputLabels?: (index: number) => string;
    label?: (this: EditorNodeInstance<P>) => string;
  } = {},
) {
  return {
    paletteLabel: () => t('paletteLabel'),
    inputLabels: () => t('label.inputLabel'),
    outputLabels: own.outputLabels ?? (() => t('label.outputLabel')),
    label:
      own.label ??
      function (this: EditorNodeInstance<P>) {
        return this.name || t('paletteLabel');
      },
    labelStyle(this: EditorNodeInstance<P>) {
      return this.name ? 'node_label_italic' : '';
    },
  } satisfies Record<PaletteLabelKey, unknown>;
}

/** POSTs `body` as JSON to an admin endpoint of the package and reads the JSON answer. */
export function postJson(path: string, body: unknown): JQuery.jqXHR {
  return $.ajax({
    url: path,
    type: 'POST',
    contentType: 'application/json',
    data: JSON.stringify(body),
    dataType: 'json',
  });
}

/**
 * Shows that a button's request is under way, as Node-RED's own buttons do: disabled, with a spinner in
 * place of its icon, until `request` settles.
 */
export function whileWaiting(button: JQuery, request: JQuery.jqXHR): void {
  const icon = button.find('i').first();
  const iconClass = icon.attr('class') ?? '';
  button.prop('disabled', true).attr('aria-busy', 'true');
  icon.attr('class', 'fa fa-spinner fa-spin');
  request.always(() => {
    button.prop('disabled', false).removeAttr('aria-busy');
    icon.attr('class', iconClass);
  });
}

/**
 * Node-RED's validator of a typed input of a fixed type (`msg`): it checks the property expression too.
 * @types/node-red knows only the older form, which names a field holding the type.
 */
export function typedInputValidator(type: string): (value: string) => boolean {
  const typedInput = RED.validators.typedInput as unknown as (options: {
    type: string;
  }) => (value: string) => boolean;
  return typedInput({ type });
}
