/** The HTTPS device simulator: for tests, the demo, and users without a device. Plain Node.js, no Node-RED. */
export { DEFAULT_ENROLLMENT_CODE, DeviceSimulator, startSimulator } from './simulator';
export type {
  AnswerEncoding,
  ErrorFormat,
  LayoutSpelling,
  RecordedRequest,
  SimulatorAccount,
  SimulatorCounters,
  SimulatorFault,
  SimulatorFirmware,
  SimulatorModel,
  SimulatorOptions,
  SimulatorState,
} from './types';
export { sampleZones } from './zones';
