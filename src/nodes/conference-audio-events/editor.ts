import { catalogue, type NamedProperties, nameAndDevice, paletteEntry, validator } from '../editor-common';
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
const checkbox = (event: LiveEventChoice) => $(`#conference-audio-event-${event}`);

RED.nodes.registerType<EventsProperties>('conference-audio-events', {
  ...paletteEntry<EventsProperties>(t, { inputs: 0, outputs: 1, icon: 'conference-audio-events.svg' }),
  defaults: {
    ...nameAndDevice(),
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
    const chosen = readLiveEvents(this.events);
    const checked = chosen.ok ? chosen.value : chosen.fallback;
    const choices = $('#conference-audio-event-choices').empty();
    for (const event of LIVE_EVENT_CHOICES) {
      const box = $('<input type="checkbox" style="width: auto; margin: 0 4px 0 0;">')
        .attr('id', `conference-audio-event-${event}`)
        .prop('checked', checked.includes(event));
      const label = $('<label style="width: auto; display: block;">');
      label.append(box, ' ', $('<span>').text(t(`events.${event}`)));
      choices.append(label);
    }
    const showRate = () => $('#conference-audio-rate-row').toggle(checkbox('soundLocation').prop('checked'));
    checkbox('soundLocation').on('change', showRate);
    showRate();
  },
  oneditsave() {
    this.events = LIVE_EVENT_CHOICES.filter((event) => checkbox(event).prop('checked'));
  },
});
