import { catalogue, type NamedProperties, paletteEntry, validator } from '../editor-common';
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
const checkbox = (group: StateGroupName) => $(`#conference-audio-state-group-${group}`);

RED.nodes.registerType<StateProperties>('conference-audio-state', {
  ...paletteEntry<StateProperties>(t, { inputs: 1, outputs: 1, icon: 'conference-audio-state.svg' }),
  defaults: {
    name: { value: '' },
    device: { value: '', type: 'conference-audio-device', required: true },
    groups: {
      value: [...STATE_DEFAULTS.groups],
      validate: validator((value) => (readStateGroups(value).ok ? undefined : t('errors.noGroups'))),
    },
    output: { value: STATE_DEFAULTS.output },
    topic: { value: '' },
  },
  oneditprepare() {
    const chosen = readStateGroups(this.groups);
    const checked = chosen.ok ? chosen.value : chosen.fallback;
    const choices = $('#conference-audio-state-group-choices').empty();
    for (const group of STATE_GROUPS) {
      const box = $('<input type="checkbox" style="width: auto; margin: 0 4px 0 0;">')
        .attr('id', `conference-audio-state-group-${group}`)
        .prop('checked', checked.includes(group));
      const label = $('<label style="width: auto; display: block;">');
      label.append(box, ' ', $('<span>').text(t(`groups.${group}`)));
      choices.append(label);
    }
    const select = $('#node-input-output').empty();
    for (const mode of OUTPUT_MODES)
      select.append(
        $('<option>')
          .val(mode)
          .text(t(`output.${mode}`)),
      );
    select.val(this.output ?? STATE_DEFAULTS.output);
  },
  oneditsave() {
    this.groups = STATE_GROUPS.filter((group) => checkbox(group).prop('checked'));
  },
});
