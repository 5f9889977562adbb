import {
  catalogue,
  type NamedProperties,
  nameAndDevice,
  paletteEntry,
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

RED.nodes.registerType<LookupProperties>('conference-audio-zone-lookup', {
  ...paletteEntry<LookupProperties>(t, {
    inputs: 1,
    outputs: 2,
    icon: 'conference-audio-zone-lookup.svg',
    outputLabels: (index) => (index === 0 ? t('label.outputInside') : t('label.outputOutside')),
  }),
  defaults: {
    // The device is optional: messages may carry their own zones.
    ...nameAndDevice(false),
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
