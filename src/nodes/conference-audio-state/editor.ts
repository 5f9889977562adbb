import { checkboxChoices, fillChoices } from '../editor-choices';
import { catalogue, DEVICE_TYPE, type NamedProperties, paletteLabels, validator } from '../editor-common';
import {
  OUTPUT_MODES,
  type OutputMode,
  readStateGroups,
  STATE_DEFAULTS,
  STATE_GROUPS,
  type StateGroupName,
  TYPE,
} from './definition';

interface StateProperties extends NamedProperties {
  device: string;
  groups: StateGroupName[];
  output: OutputMode;
  topic: string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<StateProperties>(t);
const groupChoices = checkboxChoices<StateGroupName>('conference-audio-state-group-');

RED.nodes.registerType<StateProperties>('conference-audio-state', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    groups: {
      value: [...STATE_DEFAULTS.groups],
      validate: validator((value) => (readStateGroups(value).ok ? undefined : t('errors.noGroups'))),
    },
    output: { value: STATE_DEFAULTS.output },
    topic: { value: '' },
  },
  oneditprepare() {
    groupChoices.fill(
      $('#conference-audio-state-group-choices'),
      STATE_GROUPS,
      readStateGroups(this.groups),
      (group) => t(`groups.${group}`),
    );
    fillChoices(
      $('#node-input-output'),
      OUTPUT_MODES,
      (mode) => t(`output.${mode}`),
      this.output ?? STATE_DEFAULTS.output,
    );
  },
  oneditsave() {
    this.groups = groupChoices.ticked(STATE_GROUPS);
  },
});
