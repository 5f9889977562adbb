import {
  catalogue,
  DEVICE_TYPE,
  type NamedProperties,
  paletteLabels,
  typedInputValidator,
  validator,
} from '../editor-common';
import { LOOKUP_DEFAULTS, readMaxAge, TYPE } from './definition';

interface LookupProperties extends NamedProperties {
  device: string;
  property: string;
  maxAge: number | string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<LookupProperties>(t, {
  outputLabels: (index) => (index === 0 ? t('label.outputInside') : t('label.outputOutside')),
});

RED.nodes.registerType<LookupProperties>('conference-audio-zone-lookup', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    // The device is optional: messages may carry their own zones.
    device: { value: '', type: DEVICE_TYPE, required: false },
    property: {
      value: LOOKUP_DEFAULTS.property,
      required: true,
      validate: typedInputValidator('msg'),
    },
    maxAge: {
      value: LOOKUP_DEFAULTS.maxAgeSeconds,
      required: true,
      validate: validator((value) =>
        String(value).trim() !== '' && readMaxAge(value).ok ? undefined : t('errors.maxAge'),
      ),
    },
  },
  oneditprepare() {
    $('#node-input-property').typedInput({ types: ['msg'] });
  },
});
