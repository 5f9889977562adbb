/** The HTTPS device simulator: for tests, the demo, and users without a device. Plain Node.js, no Node-RED. */
export { OptionError } from './options';
export { sampleProfiles } from './resources/profiles';
export { DEFAULT_ENROLLMENT_CODE, DeviceSimulator, startSimulator } from './simulator';
export type {
  AnswerEncoding,
  CameraSwitcherFields,
  ConnectionStatus,
  ErrorFormat,
  LayoutSpelling,
  LedColour,
  LedLight,
  LedName,
  LedState,
  NetworkFields,
  RecordedRequest,
  SimulatorAccount,
  SimulatorCounters,
  SimulatorFault,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  SimulatorProfile,
  SimulatorState,
  SimulatorStats,
  UsbEventForm,
  VolumeScale,
  WriteAnswer,
} from './types';
export { sampleZones } from './zones';
