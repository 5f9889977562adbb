import { fillChoices } from '../editor-choices';
import {
  catalogue,
  DEVICE_TYPE,
  localisedMessage,
  type NamedProperties,
  paletteLabels,
  validator,
} from '../editor-common';
import { METHODS, pathError, REQUEST_DEFAULTS, TYPE } from './definition';

interface RequestProperties extends NamedProperties {
  device: string;
  method: string;
  path: string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<RequestProperties>(t, {
  label() {
    return this.name || `${this.method || REQUEST_DEFAULTS.method} ${this.path || REQUEST_DEFAULTS.path}`;
  },
});

RED.nodes.registerType<RequestProperties>('conference-audio-request', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
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
  oneditprepare() {
    fillChoices($('#node-input-method'), METHODS, (method) => method, this.method || REQUEST_DEFAULTS.method);
    $('#node-input-path').attr('placeholder', REQUEST_DEFAULTS.path);
  },
});
