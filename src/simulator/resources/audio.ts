import type { DeviceContext } from '../device';
import { answerWrite, type Exchange, type Routes, sendError, sendJsonAnswer } from '../exchange';
import { NOT_JSON, parseJson, readText } from '../request-body';
import type { VolumeScale } from '../types';
import { isRecord } from '../zones';
import {
  type AudioSettings,
  audioOnFirmware,
  defaultAudio,
  NO_SETTING,
  patchAudio,
  setAudioFields,
} from './audio-fields';

export const DEFAULT_VOLUME_SCALE: VolumeScale = { max: 20, step: 1 };

/**
 * `/api/v1/audio` and its volume step. Audio changes are never announced on the change stream, but
 * `microphoneMute` is the microphone itself: `onMicrophoneMute` hears every change of it, however made
 * (a PATCH, the device's own app, a factory reset), so the sound-location stream can fall silent.
 */
export class AudioResource {
  #settings: AudioSettings;
  #scale: VolumeScale;
  readonly #onMicrophoneMute: (muted: boolean) => void;

  constructor(
    private readonly device: DeviceContext,
    scale: VolumeScale = DEFAULT_VOLUME_SCALE,
    onMicrophoneMute: (muted: boolean) => void = () => {},
  ) {
    this.#scale = { ...scale };
    this.#settings = startingAudio(this.#scale);
    this.#onMicrophoneMute = onMicrophoneMute;
  }

  /** Every field, whatever the firmware (the controls' view). */
  get settings(): AudioSettings {
    return { ...this.#settings };
  }

  get volumeScale(): VolumeScale {
    return { ...this.#scale };
  }

  routes(): Routes {
    return {
      '/api/v1/audio': {
        minimumRole: 'general',
        methods: {
          GET: (exchange) =>
            sendJsonAnswer(exchange, 200, audioOnFirmware(this.#settings, this.device.firmwareVersion)),
          PATCH: (exchange) => this.#patch(exchange),
        },
      },
      '/api/v1/audio/volume/change': {
        minimumRole: 'general',
        methods: { PUT: (exchange) => this.#changeVolume(exchange) },
      },
    };
  }

  /** Sets fields as the device's own app would; `speakerVolume` included, within the volume scale. */
  set(fields: Record<string, unknown>): void {
    this.#replace(setAudioFields(this.#settings, fields, this.#scale.max));
  }

  /** A new range keeps the volume at the same share of it. */
  setVolumeScale(scale: VolumeScale): void {
    const volume = Number(this.#settings.speakerVolume);
    this.#settings.speakerVolume = Math.round((volume * scale.max) / this.#scale.max);
    this.#scale = { ...scale };
  }

  reset(): void {
    this.#replace(startingAudio(this.#scale));
  }

  #replace(next: AudioSettings): void {
    const wasMuted = this.#settings.microphoneMute === true;
    this.#settings = next;
    const muted = next.microphoneMute === true;
    if (muted !== wasMuted) this.#onMicrophoneMute(muted);
  }

  async #patch(exchange: Exchange): Promise<void> {
    const text = await readText(exchange);
    if (text === undefined) return;
    const body = parseJson(text);
    if (body === NOT_JSON) {
      sendError(exchange, 400, [NO_SETTING]);
      return;
    }
    const result = patchAudio(this.#settings, body, this.device.firmwareVersion);
    if (!result.ok) {
      sendError(exchange, 400, [result.message]);
      return;
    }
    this.#replace(result.audio);
    answerWrite(exchange, 200, body);
  }

  /** One step up or down; a step past either end leaves the volume where it is and still succeeds. */
  async #changeVolume(exchange: Exchange): Promise<void> {
    const text = await readText(exchange);
    if (text === undefined) return;
    const body = parseJson(text);
    const operation = isRecord(body) ? body.operation : undefined;
    if (operation !== 'increment' && operation !== 'decrement') {
      sendError(exchange, 400, ['Unsupported Attributes: operation.']);
      return;
    }
    const step = operation === 'increment' ? this.#scale.step : -this.#scale.step;
    const volume = Number(this.#settings.speakerVolume) + step;
    this.#settings.speakerVolume = Math.min(this.#scale.max, Math.max(0, volume));
    answerWrite(exchange, 200, body);
  }
}

/** The starting values, with the volume at its starting share of the range. */
function startingAudio(scale: VolumeScale): AudioSettings {
  const start = defaultAudio();
  start.speakerVolume = Math.round((Number(start.speakerVolume) * scale.max) / DEFAULT_VOLUME_SCALE.max);
  return start;
}
