import type {
  ConnectionStatus,
  ErrorFormat,
  LayoutSpelling,
  LedColour,
  LedLight,
  LedName,
  LedState,
  SimulatorFirmware,
  SimulatorModel,
} from './types';

export const MODELS: readonly SimulatorModel[] = ['310', '410', 'X'];
export const FIRMWARES: readonly SimulatorFirmware[] = ['classic', 'layout'];
export const LAYOUT_SPELLINGS: readonly LayoutSpelling[] = [
  'spec',
  'type-string',
  'zoneId',
  'ZoneLabel',
  'mixed',
];
export const ERROR_FORMATS: readonly ErrorFormat[] = ['errors', 'problem-details'];

export function isSimulatorModel(value: unknown): value is SimulatorModel {
  return MODELS.some((model) => model === value);
}
export function isSimulatorFirmware(value: unknown): value is SimulatorFirmware {
  return FIRMWARES.some((firmware) => firmware === value);
}
export function isLayoutSpelling(value: unknown): value is LayoutSpelling {
  return LAYOUT_SPELLINGS.some((spelling) => spelling === value);
}
export function isErrorFormat(value: unknown): value is ErrorFormat {
  return ERROR_FORMATS.some((format) => format === value);
}

export const LED_NAMES: readonly LedName[] = ['console', 'networkA'];
export const LED_COLOURS: readonly LedColour[] = ['none', 'red', 'yellow', 'green'];
export const LED_STATES: readonly LedState[] = ['off', 'solid', 'pulsing', 'blinking', 'flashing'];
export const CONNECTION_STATUSES: readonly ConnectionStatus[] = ['connected', 'disconnected', 'unknown'];

export function isLedLight(value: unknown): value is LedLight {
  if (typeof value !== 'object' || value === null) return false;
  const { colour, state } = value as Record<string, unknown>;
  return LED_COLOURS.some((known) => known === colour) && LED_STATES.some((known) => known === state);
}
