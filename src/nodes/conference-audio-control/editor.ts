import type { EditorWidgetTypedInputType, EditorWidgetTypedInputTypeDefinition } from 'node-red';
import { fillChoices } from '../editor-choices';
import { catalogue, DEVICE_TYPE, type NamedProperties, paletteLabels, validator } from '../editor-common';
import {
  ACTION_CHOICES,
  type ActionChoice,
  CONFIRMED_ACTION,
  CONTROL_DEFAULTS,
  checkConfiguredAction,
  isActionChoice,
  isWordType,
  MESSAGE_ACTION,
  TYPE,
  VALUE_FIELDS,
  type ValueField,
  type ValueType,
} from './definition';

interface ControlProperties extends NamedProperties {
  device: string;
  action: ActionChoice;
  value: string;
  valueType: ValueType;
}

const t = catalogue(TYPE);
const labels = paletteLabels<ControlProperties>(t, {
  label() {
    if (this.name) return this.name;
    return isActionChoice(this.action) ? t(`actions.${this.action}`) : t('paletteLabel');
  },
});
const actionField = () => $('#node-input-action');
const valueField = () => $('#node-input-value');
const valueTypeField = () => $('#node-input-valueType');

/**
 * The TypedInput types of a value field: Node-RED's own by name, and each of the action's words as a type
 * of its own without a value (the word is the value).
 */
function typedInputTypes(
  field: ValueField,
): Array<EditorWidgetTypedInputType | EditorWidgetTypedInputTypeDefinition> {
  return field.types.map((type) =>
    isWordType(type) ? { value: type, label: t(`types.${type}`), hasValue: false } : type,
  );
}

/** Shows the value field that fits `action` (or the hint of an action without a value). */
function showValueField(action: ActionChoice) {
  const field = VALUE_FIELDS[action];
  $('#conference-audio-control-value-row').toggle(field !== undefined);
  const hint = $('#conference-audio-control-hint');
  if (field === undefined) {
    hint.text(t(action === MESSAGE_ACTION ? 'hint.msg' : 'hint.noValue')).show();
    return;
  }
  hint.hide();
  const input = valueField();
  const keeps = field.types.some((offered) => offered === input.typedInput('type'));
  const value = keeps ? input.typedInput('value') : field.initial.value;
  const type = keeps ? input.typedInput('type') : field.initial.type;
  input.typedInput('types', typedInputTypes(field));
  input.typedInput('type', type);
  input.typedInput('value', value);
}

RED.nodes.registerType<ControlProperties>('conference-audio-control', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    action: { value: CONTROL_DEFAULTS.action, required: true },
    value: {
      value: CONTROL_DEFAULTS.value,
      validate: validator(function (this: unknown, value: unknown) {
        // While the dialog is open, the dialog's action and type; else the node's.
        const node = this as Partial<ControlProperties>;
        const action = actionField().length ? actionField().val() : node.action;
        const type = valueTypeField().length ? valueTypeField().val() : node.valueType;
        return checkConfiguredAction(action, value, type);
      }),
    },
    valueType: { value: CONTROL_DEFAULTS.valueType },
  },
  oneditprepare() {
    let chosen: ActionChoice = isActionChoice(this.action) ? this.action : CONTROL_DEFAULTS.action;
    const select = fillChoices(actionField(), ACTION_CHOICES, (action) => t(`actions.${action}`), chosen);
    const saved = VALUE_FIELDS[chosen];
    valueField().typedInput({
      default: this.valueType || CONTROL_DEFAULTS.valueType,
      types: saved === undefined ? ['str'] : typedInputTypes(saved),
      typeField: '#node-input-valueType',
    });
    showValueField(chosen);
    select.on('change', () => {
      const next = select.val();
      if (!isActionChoice(next) || next === chosen) return;
      // Calibration plays loud noise for about 20 s: chosen only on purpose.
      if (next === CONFIRMED_ACTION && !window.confirm(t('confirm.calibrate'))) {
        select.val(chosen);
        return;
      }
      chosen = next;
      showValueField(chosen);
    });
  },
});
