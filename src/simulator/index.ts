/** The HTTPS device simulator: for tests, the demo, and users without a device. Plain Node.js, no Node-RED. */
export { CertificateStoreError, type KeptCertificate, keptCertificate } from './certificate-store';
export { OptionError } from './options';
export { sampleProfiles } from './resources/profiles';
export { DEFAULT_ENROLLMENT_CODE, DeviceSimulator, startSimulator } from './simulator';
export type * from './types';
export { sampleZones } from './zones';
