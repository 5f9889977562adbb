/**
 * The room zones node's properties: output modes, defaults, the polling floor and the room map's words.
 * Imported by the runtime and by the editor (no Node-RED, no DOM).
 */
import { MAX_TIMER_SECONDS } from '../../api/settings-rules';
import { ZONE_MAP_WORDS, type ZoneMapWords } from '../../zones/map';
import { palette } from '../palette';

export const TYPE = 'conference-audio-zones';

/** Its place in the palette (scripts/build.js writes these into the editor's registerType). */
export const PALETTE = palette(TYPE, { inputs: 1, outputs: 1 });

export const OUTPUT_MODES = ['all', 'each', 'changes', 'map'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export const ZONES_DEFAULTS = {
  output: 'all',
  /** Seconds between reads; 0 reads on input (and after deploy with onStart) only. */
  interval: 0,
  onStart: false,
  topic: 'zones',
} as const satisfies { output: OutputMode; interval: number; onStart: boolean; topic: string };

/** The settings.js entry that sets the polling floor; the runtime exports it to the editor. */
export const MIN_INTERVAL_SETTING = 'conferenceAudioZonesMinInterval';
/** Poll no faster than this unless settings.js says otherwise: the device allows about 600 requests a minute. */
export const MIN_INTERVAL_SECONDS = 5;

export function readOutputMode(value: unknown): OutputMode {
  return OUTPUT_MODES.find((known) => known === value) ?? ZONES_DEFAULTS.output;
}

/** The polling floor from settings.js (`configured`), or the default when it is not a positive number. */
export function minimumInterval(configured: unknown): number {
  const seconds = Number(configured);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : MIN_INTERVAL_SECONDS;
}

/** Whether a typed interval is one the node polls with as typed: 0, or from the floor to what timers allow. */
export function isInterval(value: unknown, minSeconds: number): boolean {
  const seconds = Number(value);
  return (
    String(value).trim() !== '' &&
    Number.isFinite(seconds) &&
    (seconds === 0 || (seconds >= minSeconds && seconds <= MAX_TIMER_SECONDS))
  );
}

/** The room map's words from a catalogue (`map.<word>`), for a map in the reader's language. */
export function mapWords(translate: (key: string) => string): ZoneMapWords {
  const words = { ...ZONE_MAP_WORDS };
  for (const key of Object.keys(words) as Array<keyof ZoneMapWords>) words[key] = translate(`map.${key}`);
  return words;
}
