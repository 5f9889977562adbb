import { ANY_ZONE_TYPE } from '../../zones/active-zone';
import { fillChoices } from '../editor-choices';
import { catalogue, DEVICE_TYPE, type NamedProperties, paletteLabels, validator } from '../editor-common';
import {
  ACTIVE_ZONE_DEFAULTS,
  isDelayMs,
  MAX_DELAY_MS,
  readTiming,
  TIMING_CHOICES,
  type Timing,
  TYPE,
  ZONE_TYPE_SUGGESTIONS,
} from './definition';

interface ActiveZoneProperties extends NamedProperties {
  device: string;
  zoneType: string;
  hold: number | string;
  release: number | string;
  timing: Timing;
  topic: string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<ActiveZoneProperties>(t);
const delayMs = validator((value) =>
  isDelayMs(value) ? undefined : t('errors.number', { max: MAX_DELAY_MS }),
);

RED.nodes.registerType<ActiveZoneProperties>('conference-audio-active-zone', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    zoneType: {
      value: ACTIVE_ZONE_DEFAULTS.zoneType,
      required: true,
      validate: validator((value) =>
        typeof value === 'string' && value.trim() !== '' ? undefined : t('errors.zoneType'),
      ),
    },
    hold: { value: ACTIVE_ZONE_DEFAULTS.holdMs, required: true, validate: delayMs },
    release: { value: ACTIVE_ZONE_DEFAULTS.releaseMs, required: true, validate: delayMs },
    timing: { value: ACTIVE_ZONE_DEFAULTS.timing },
    topic: { value: '' },
  },
  oneditprepare() {
    const suggestions = $('#conference-audio-zone-types').empty();
    for (const zoneType of ZONE_TYPE_SUGGESTIONS) {
      const option = $('<option>').attr('value', zoneType);
      if (zoneType === ANY_ZONE_TYPE) option.attr('label', t('label.anyType'));
      suggestions.append(option);
    }
    const timing = fillChoices(
      $('#node-input-timing'),
      TIMING_CHOICES,
      (choice) => t(`timing.${choice}`),
      readTiming(this.timing),
    );
    // The device's timing replaces hold and release: their fields would only mislead.
    const showDelays = () => $('.conference-audio-node-timing').toggle(readTiming(timing.val()) === 'node');
    timing.on('change', showDelays);
    showDelays();
  },
});
