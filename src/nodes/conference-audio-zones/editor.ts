import { DEVICE_PROPERTIES, MAX_TIMER_SECONDS } from '../../api/settings-rules';
import { fillChoices } from '../editor-choices';
import {
  type AnsweredError,
  catalogue,
  DEVICE_TYPE,
  localisedMessage,
  type NamedProperties,
  paletteLabels,
  postJson,
  validator,
  whileWaiting,
} from '../editor-common';
import { UNCHANGED_PASSWORD } from '../settings/node-settings';
import {
  isInterval,
  MIN_INTERVAL_SETTING,
  mapWords,
  minimumInterval,
  OUTPUT_MODES,
  TYPE,
  ZONES_DEFAULTS,
} from './definition';

interface ZonesProperties extends NamedProperties {
  device: string;
  output: string;
  interval: number | string;
  onStart: boolean;
  topic: string;
}

/** The config node as the editor holds it, saved or not. */
interface DeviceConfig {
  id: string;
  changed?: boolean;
  credentials?: { password?: unknown };
  [property: string]: unknown;
}

interface ZoneMapAnswer {
  ok: boolean;
  error?: AnsweredError;
  svg?: string;
  count?: number;
  warnings?: Array<{ message: string }>;
}

const t = catalogue(TYPE);
const labels = paletteLabels<ZonesProperties>(t);
/** The polling floor the runtime exports from settings.js (or its default). */
const minSeconds = () =>
  minimumInterval((RED.settings as unknown as Record<string, unknown>)[MIN_INTERVAL_SETTING]);

/** What the zone-map endpoint needs: the deployed config node's id, or its unsaved fields. */
function deviceRequest(config: DeviceConfig): Record<string, unknown> {
  if (!config.changed) return { device: config.id };
  const request: Record<string, unknown> = { id: config.id };
  for (const property of DEVICE_PROPERTIES) request[property] = config[property];
  const password = config.credentials?.password;
  request.password = typeof password === 'string' ? password : UNCHANGED_PASSWORD;
  return request;
}

function showZones(event: JQuery.TriggeredEvent) {
  event.preventDefault();
  const result = $('#conference-audio-zone-result');
  const map = $('#conference-audio-zone-map');
  const config = RED.nodes.node(String($('#node-input-device').val())) as unknown as DeviceConfig | null;
  if (!config) {
    result.text(t('result.noDevice'));
    return;
  }
  result.text(t('result.reading'));
  const request = postJson('conference-audio/zone-map', { ...deviceRequest(config), words: mapWords(t) });
  whileWaiting($('#conference-audio-show-zones'), request);
  request
    .done((answer: ZoneMapAnswer) => {
      if (!answer?.ok || answer.svg === undefined) {
        const error = answer?.error ?? { code: 'ERROR', message: '' };
        map.empty();
        result.text(t('result.failed', { code: error.code, message: localisedMessage(error) }));
        return;
      }
      // The SVG is built by the runtime's renderZoneMap, which escapes every device-supplied text.
      map.html(answer.svg);
      // The drawing has a fixed size and a viewBox: let it shrink to the dialog's width.
      map.find('svg').css({ maxWidth: '100%', height: 'auto' });
      const lines = [t('result.count', { count: answer.count ?? 0 })];
      for (const warning of answer.warnings ?? []) lines.push(`⚠ ${warning.message}`);
      result.text(lines.join('\n'));
    })
    .fail((xhr: JQuery.jqXHR) => {
      map.empty();
      result.text(t('result.failed', { code: `HTTP_${xhr.status}`, message: xhr.statusText }));
    });
}

RED.nodes.registerType<ZonesProperties>('conference-audio-zones', {
  ...paletteEntry(labels),
  defaults: {
    name: { value: '' },
    device: { value: '', type: DEVICE_TYPE, required: true },
    output: { value: ZONES_DEFAULTS.output, required: true },
    interval: {
      value: ZONES_DEFAULTS.interval,
      required: true,
      validate: validator((value) =>
        isInterval(value, minSeconds())
          ? undefined
          : t('errors.interval', { min: minSeconds(), max: MAX_TIMER_SECONDS }),
      ),
    },
    onStart: { value: ZONES_DEFAULTS.onStart },
    topic: { value: ZONES_DEFAULTS.topic },
  },
  oneditprepare() {
    fillChoices(
      $('#node-input-output'),
      OUTPUT_MODES,
      (mode) => t(`output.${mode}`),
      this.output || ZONES_DEFAULTS.output,
    );
    $('#conference-audio-interval-hint').text(t('hint.interval', { min: minSeconds() }));
    $('#conference-audio-show-zones').on('click', showZones);
  },
});
