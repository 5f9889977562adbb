/**
 * Device settings as users type them, with the verdict both the editor and the runtime must give.
 * test/api/settings-editor.test.ts runs it against the generated editor script, the browser test
 * against the dialog's validators in a real editor.
 */
import type { DeviceProperty } from '../../src/api/settings-rules';

export interface SettingCase {
  property: DeviceProperty;
  value: string;
  /** The dialog's TLS choice, for the fingerprint and CA rows. */
  tlsMode?: string;
  /** Valid as typed; for a `${VAR}`, valid in the editor (the runtime judges the substituted value). */
  valid: boolean;
}

/** `${NAME}`, as a user types it into a config field. */
export function envReference(name: string): string {
  return `\${${name}}`;
}

export const ENV_PORT = 'CA_TEST_DEVICE_PORT';

export const settingCases: readonly SettingCase[] = [
  { property: 'host', value: '192.168.1.50', valid: true },
  { property: 'host', value: ' 192.168.1.50 ', valid: true },
  { property: 'host', value: 'fd00::1', valid: true },
  { property: 'host', value: '[fd00::1]', valid: true },
  { property: 'host', value: '::ffff:10.0.0.5', valid: true },
  { property: 'host', value: 'room-12.example.org', valid: true },
  { property: 'host', value: 'fe80::1%eth0', valid: false },
  { property: 'host', value: '[fe80::1%25eth0]', valid: false },
  { property: 'host', value: '999.1.1.1', valid: false },
  { property: 'host', value: '10.0.0.5:8443', valid: false },
  { property: 'host', value: 'https://10.0.0.5', valid: false },
  { property: 'host', value: '10.0.0.5/api', valid: false },
  { property: 'host', value: 'under_score.example', valid: false },
  { property: 'host', value: envReference('DEVICE_HOST'), valid: true },
  { property: 'port', value: '443', valid: true },
  { property: 'port', value: '65535', valid: true },
  { property: 'port', value: '', valid: true },
  { property: 'port', value: '0', valid: false },
  { property: 'port', value: '65536', valid: false },
  { property: 'port', value: '8443.5', valid: false },
  { property: 'port', value: 'https', valid: false },
  { property: 'port', value: envReference(ENV_PORT), valid: true },
  { property: 'timeout', value: '10', valid: true },
  { property: 'timeout', value: '0.5', valid: true },
  { property: 'timeout', value: '3600', valid: true },
  { property: 'timeout', value: '0', valid: false },
  { property: 'timeout', value: '-1', valid: false },
  { property: 'timeout', value: '3601', valid: false },
  { property: 'timeout', value: 'ten', valid: false },
  { property: 'timeout', value: envReference('DEVICE_TIMEOUT'), valid: true },
  { property: 'clientId', value: 'room-12 controller', valid: true },
  { property: 'clientId', value: 'x'.repeat(501), valid: false },
  { property: 'clientId', value: 'caf\u00e9', valid: false },
  { property: 'clientId', value: envReference('DEVICE_CLIENT_ID'), valid: true },
  { property: 'vendor', value: 'Acme', valid: true },
  { property: 'vendor', value: 'Big Vendor', valid: false },
  { property: 'account', value: 'admin', valid: true },
  { property: 'account', value: 'Admin', valid: false },
  { property: 'fingerprint', value: 'ab'.repeat(32), tlsMode: 'pin', valid: true },
  { property: 'fingerprint', value: 'AB:CD', tlsMode: 'pin', valid: false },
  { property: 'fingerprint', value: 'AB:CD', tlsMode: 'insecure', valid: true },
  { property: 'ca', value: 'not a certificate', tlsMode: 'ca', valid: false },
  { property: 'ca', value: '', tlsMode: 'pin', valid: true },
  { property: 'audioInterval', value: '0', valid: true },
  { property: 'audioInterval', value: '0.5', valid: true },
  { property: 'audioInterval', value: '60', valid: true },
  { property: 'audioInterval', value: '61', valid: false },
  { property: 'audioInterval', value: '0x10', valid: false },
  { property: 'audioInterval', value: envReference('DEVICE_AUDIO_INTERVAL'), valid: true },
];
