import type { ErrorFormat, LayoutSpelling, SimulatorFirmware, SimulatorModel } from './types';

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
