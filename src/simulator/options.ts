import {
  isErrorFormat,
  isLayoutSpelling,
  isSimulatorFirmware,
  isSimulatorModel,
  LAYOUT_SPELLINGS,
} from './guards';
import type { SimulatorOptions } from './types';

const ENROLLMENT_CODE_PATTERN = /^[A-Z0-9]{3}-[A-Z0-9]{3}-[A-Z0-9]{3}$/;
const VENDOR_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;

/** Checks options from a caller without types (the CLI, a test, JSON); throws a TypeError naming the first bad one. */
export function validateOptions(options: SimulatorOptions): void {
  if (options.vendor !== undefined && !VENDOR_PATTERN.test(options.vendor)) {
    throw new TypeError('vendor must be a word of letters and digits, starting with a letter');
  }
  if (options.model !== undefined && !isSimulatorModel(options.model)) {
    throw new TypeError('model must be 310, 410 or X');
  }
  if (options.firmware !== undefined && !isSimulatorFirmware(options.firmware)) {
    throw new TypeError('firmware must be classic or layout');
  }
  if (options.layoutSpelling !== undefined && !isLayoutSpelling(options.layoutSpelling)) {
    throw new TypeError(`layoutSpelling must be one of ${LAYOUT_SPELLINGS.join(', ')}`);
  }
  const extra = options.layoutZoneFields;
  if (extra !== undefined && (typeof extra !== 'object' || extra === null || Array.isArray(extra))) {
    throw new TypeError('layoutZoneFields must be an object of fields');
  }
  if (options.errorFormat !== undefined && !isErrorFormat(options.errorFormat)) {
    throw new TypeError('errorFormat must be errors or problem-details');
  }
  if (options.enrollmentCode !== undefined && !ENROLLMENT_CODE_PATTERN.test(options.enrollmentCode)) {
    throw new TypeError('enrollmentCode must look like XXX-XXX-XXX (upper-case letters and digits)');
  }
  const perMinute = options.rateLimitPerMinute;
  if (perMinute !== undefined && (!Number.isInteger(perMinute) || perMinute < 1)) {
    throw new TypeError('rateLimitPerMinute must be an integer >= 1');
  }
  if (
    options.rateLimitStatus !== undefined &&
    options.rateLimitStatus !== 429 &&
    options.rateLimitStatus !== 409
  ) {
    throw new TypeError('rateLimitStatus must be 429 or 409');
  }
  const encoding = options.answerEncoding;
  if (encoding !== undefined && encoding !== 'plain' && encoding !== 'chunked' && encoding !== 'gzip') {
    throw new TypeError('answerEncoding must be plain, chunked or gzip');
  }
  if (options.talker !== undefined && !['walk', 'still', 'off'].includes(options.talker)) {
    throw new TypeError('talker must be walk, still or off');
  }
  const at = options.talkerAt;
  if (at !== undefined && !(Number.isFinite(at?.x) && Number.isFinite(at?.y))) {
    throw new TypeError('talkerAt needs finite x and y in mm');
  }
  for (const name of [
    'soundLocationIntervalMs',
    'metricsIntervalMs',
    'heartbeatIntervalMs',
    'streamConnectionsPerMinute',
  ] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 2_147_483_647)) {
      throw new TypeError(`${name} must be a whole number from 1 to 2147483647`);
    }
  }
  const port = options.port;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new TypeError('port must be an integer from 0 to 65535');
  }
}
