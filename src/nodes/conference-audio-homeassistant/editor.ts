import { catalogue, type NamedProperties, validator } from '../editor-common';
import { TYPE, topicProblem } from './definition';

interface HomeAssistantProperties extends NamedProperties {
  device: string;
  room: string;
  prefix: string;
  base: string;
}

const t = catalogue(TYPE);
const topicValidator = validator((value) => topicProblem(value) && t('errors.topic'));

// Literal values throughout: the flow library reads this definition from the built HTML without running it.
RED.nodes.registerType<HomeAssistantProperties>('conference-audio-homeassistant', {
  category: 'conference audio',
  color: '#8CC8E8',
  inputs: 1,
  outputs: 1,
  icon: 'conference-audio-homeassistant.svg',
  defaults: {
    name: { value: '' },
    device: { value: '', type: 'conference-audio-device', required: true },
    room: { value: '' },
    prefix: { value: 'homeassistant', required: true, validate: topicValidator },
    base: { value: 'conference-audio', required: true, validate: topicValidator },
  },
  paletteLabel: () => t('paletteLabel'),
  inputLabels: () => t('label.inputLabel'),
  outputLabels: () => t('label.outputLabel'),
  label() {
    return this.name || t('paletteLabel');
  },
  labelStyle() {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare() {
    $('#node-input-room').attr('placeholder', t('placeholder.room'));
  },
});
