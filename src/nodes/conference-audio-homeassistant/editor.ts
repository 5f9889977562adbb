import { catalogue, DEVICE_TYPE, type NamedProperties, paletteLabels, validator } from '../editor-common';
import { HOMEASSISTANT_DEFAULTS, TYPE, topicProblem } from './definition';

interface HomeAssistantProperties extends NamedProperties {
  device: string;
  room: string;
  prefix: string;
  base: string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<HomeAssistantProperties>(t);
const topicValidator = validator((value) => topicProblem(value) && t('errors.topic'));

RED.nodes.registerType<HomeAssistantProperties>('conference-audio-homeassistant', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    room: { value: '' },
    prefix: { value: HOMEASSISTANT_DEFAULTS.prefix, required: true, validate: topicValidator },
    base: { value: HOMEASSISTANT_DEFAULTS.base, required: true, validate: topicValidator },
  },
  oneditprepare() {
    $('#node-input-room').attr('placeholder', t('placeholder.room'));
  },
});
