import { checkboxChoices } from '../editor-choices';
import { catalogue, DEVICE_TYPE, type NamedProperties, paletteLabels, validator } from '../editor-common';
import {
  DEFAULT_LIVE_EVENTS,
  DEFAULT_RATE,
  LIVE_EVENT_CHOICES,
  type LiveEventChoice,
  readLiveEvents,
  readRate,
  TYPE,
} from './definition';

interface EventsProperties extends NamedProperties {
  device: string;
  events: LiveEventChoice[];
  rate: number | string;
  topic: string;
}

const t = catalogue(TYPE);
const labels = paletteLabels<EventsProperties>(t);
const eventChoices = checkboxChoices<LiveEventChoice>('conference-audio-event-');
const checkbox = eventChoices.checkbox;

RED.nodes.registerType<EventsProperties>('conference-audio-events', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    events: {
      value: [...DEFAULT_LIVE_EVENTS],
      validate: validator((value) => (readLiveEvents(value).ok ? undefined : t('errors.noEvents'))),
    },
    rate: {
      value: DEFAULT_RATE,
      required: true,
      validate: validator((value) =>
        String(value).trim() !== '' && readRate(value).ok ? undefined : t('errors.rateValue'),
      ),
    },
    topic: { value: '' },
  },
  oneditprepare() {
    eventChoices.fill(
      $('#conference-audio-event-choices'),
      LIVE_EVENT_CHOICES,
      readLiveEvents(this.events),
      (event) => t(`events.${event}`),
    );
    const showRate = () => $('#conference-audio-rate-row').toggle(checkbox('soundLocation').prop('checked'));
    checkbox('soundLocation').on('change', showRate);
    showRate();
  },
  oneditsave() {
    this.events = eventChoices.ticked(LIVE_EVENT_CHOICES);
  },
});
