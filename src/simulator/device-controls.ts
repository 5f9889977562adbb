import type * as Sim from './types';
import { isRecord } from './zones';

type ControlHandler = (simulator: Sim.SimulatorControls, body: unknown) => unknown;
/** Handlers by control path and HTTP method. */
export type ControlTable = Record<string, Partial<Record<string, ControlHandler>>>;

/** `{key: value}` or the bare value. */
function member(body: unknown, key: string): unknown {
  return isRecord(body) && Object.hasOwn(body, key) ? body[key] : body;
}

function object(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new TypeError('body must be a JSON object');
  return body;
}

/**
 * The device's settings and state over HTTP, for tests and demos in another process. Each calls the simulator's method
 * of the same job, which checks the values (a TypeError is answered 400) and announces what changed.
 */
export const DEVICE_CONTROLS: ControlTable = {
  '/_simulator/model': {
    PUT: (simulator, body) => simulator.setModel(member(body, 'model') as Sim.SimulatorModel),
  },
  '/_simulator/firmware': {
    PUT: (simulator, body) => {
      const spelling = isRecord(body) ? (body.layoutSpelling ?? body.spelling) : undefined;
      simulator.setFirmware(
        member(body, 'firmware') as Sim.SimulatorFirmware,
        spelling as Sim.LayoutSpelling | undefined,
      );
    },
  },
  '/_simulator/error-format': {
    PUT: (simulator, body) => simulator.setErrorFormat(member(body, 'errorFormat') as Sim.ErrorFormat),
  },
  '/_simulator/rate-limit': {
    PUT: (simulator, body) => {
      const { perMinute, status } = object(body);
      simulator.setRateLimit(perMinute as number, status as 429 | 409 | undefined);
    },
  },
  '/_simulator/encoding': {
    PUT: (simulator, body) => simulator.setAnswerEncoding(member(body, 'encoding') as Sim.AnswerEncoding),
  },
  '/_simulator/firmware-version': {
    PUT: (simulator, body) => simulator.setFirmwareVersion(member(body, 'firmwareVersion') as string),
  },
  '/_simulator/write-answer': {
    PUT: (simulator, body) => simulator.setWriteAnswer(member(body, 'writeAnswer') as Sim.WriteAnswer),
  },
  '/_simulator/audio': { PUT: (simulator, body) => simulator.setAudio(object(body)) },
  '/_simulator/volume-scale': {
    PUT: (simulator, body) => simulator.setVolumeScale(object(body) as unknown as Sim.VolumeScale),
  },
  '/_simulator/bar': {
    PUT: (simulator, body) => simulator.setBarUnplugged(member(body, 'unplugged') as boolean),
  },
  '/_simulator/led': {
    PUT: (simulator, body) => {
      const { led, colour, state } = object(body);
      simulator.setLed(led as Sim.LedName, { colour, state } as Sim.LedLight);
    },
  },
  '/_simulator/usb': {
    PUT: (simulator, body) => {
      const { status, form } = object(body);
      if (form !== undefined) simulator.setUsbEventForm(form as Sim.UsbEventForm);
      if (status !== undefined) simulator.setUsb(status as Sim.ConnectionStatus);
    },
  },
  '/_simulator/components': {
    PUT: (simulator, body) => simulator.setComponents(member(body, 'status') as Sim.ConnectionStatus),
  },
  '/_simulator/profiles': {
    PUT: (simulator, body) => {
      const { profiles, active } = object(body);
      if (active !== undefined && typeof active !== 'string')
        throw new TypeError('active must be a profile id');
      simulator.setProfiles(profiles as Sim.SimulatorProfile[], active);
    },
  },
  '/_simulator/profiles/active': {
    POST: (simulator, body) => simulator.activateProfile(String(member(body, 'profileId'))),
  },
  '/_simulator/calibration': {
    PUT: (simulator, body) => simulator.setCalibrationMs(member(body, 'ms') as number),
  },
  '/_simulator/camera-switcher': {
    PUT: (simulator, body) => simulator.setCameraSwitcher(object(body) as Partial<Sim.CameraSwitcherFields>),
  },
  '/_simulator/network': {
    PUT: (simulator, body) => simulator.setNetwork(object(body) as Partial<Sim.NetworkFields>),
  },
  '/_simulator/bodyless-events': {
    PUT: (simulator, body) => simulator.setBodylessEvents(member(body, 'events') as string[]),
  },
  '/_simulator/layout-zone-extras': {
    PUT: (simulator, body) =>
      simulator.setLayoutZoneExtras((member(body, 'extras') ?? null) as Record<string, unknown> | null),
  },
};
