import { fillChoices } from '../editor-choices';
import {
  catalogue,
  localisedMessage,
  type NamedProperties,
  nameAndDevice,
  paletteEntry,
  validator,
} from '../editor-common';
import { METHODS, pathError, REQUEST_DEFAULTS, TYPE } from './definition';

interface RequestProperties extends NamedProperties {
  device: string;
  method: string;
  path: string;
}

const t = catalogue(TYPE);

RED.nodes.registerType<RequestProperties>('conference-audio-request', {
  ...paletteEntry<RequestProperties>(t, { inputs: 1, outputs: 1, icon: 'conference-audio-request.svg' }),
  defaults: {
    ...nameAndDevice(),
    method: { value: REQUEST_DEFAULTS.method, required: true },
    path: {
      value: REQUEST_DEFAULTS.path,
      required: true,
      validate: validator((value) => {
        const error = pathError(value);
        return error === undefined ? undefined : localisedMessage(error);
      }),
    },
  },
  label() {
    return this.name || `${this.method || REQUEST_DEFAULTS.method} ${this.path || REQUEST_DEFAULTS.path}`;
  },
  oneditprepare() {
    fillChoices($('#node-input-method'), METHODS, (method) => method, this.method || REQUEST_DEFAULTS.method);
    $('#node-input-path').attr('placeholder', REQUEST_DEFAULTS.path);
  },
});
