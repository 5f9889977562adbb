/**
 * The node definitions (src/nodes/<type>/definition.ts) are what the editor's dialogs and the runtime both
 * judge settings with: a value the dialog accepts is one the runtime takes, and the other way round.
 */
import should from 'should';
import { validateApiPath } from '../../src/api';
import { MAX_TIMER_SECONDS } from '../../src/api/settings-rules';
import { isDeviceError } from '../../src/errors';
import { pathError, readMethod } from '../../src/nodes/conference-audio-request/definition';
import { readMaxAge } from '../../src/nodes/conference-audio-zone-lookup/definition';
import {
  isInterval,
  mapWords,
  minimumInterval,
  readOutputMode,
} from '../../src/nodes/conference-audio-zones/definition';
import { ZONE_MAP_WORDS } from '../../src/zones';

const PATHS = [
  '/api/v1/audio',
  '/api/v1',
  '/api/v1/room/zones?x=1',
  '/api/v1/../admin',
  '/api/v1/%2e%2e/auth',
  '/api/v1/a//b',
  '/api/v1/a;x',
  '/api/v2/audio',
  'https://host/api/v1/audio',
  '/api/v1/a b',
  '/api/v1/caf\u00e9',
  '',
];

function runtimeRefuses(path: string): boolean {
  try {
    validateApiPath(path);
    return false;
  } catch (error) {
    if (isDeviceError(error)) return true;
    throw error;
  }
}

describe('node definitions shared by the editor and the runtime', () => {
  it('request: the dialog refuses exactly the paths the runtime refuses, with its reason', () => {
    for (const path of PATHS) {
      const error = pathError(path);
      should(error !== undefined).equal(runtimeRefuses(path), `path ${JSON.stringify(path)}`);
      if (error !== undefined) should(error.code).equal('INVALID_INPUT');
    }
  });

  it('request: reads a method in any case, and nothing else', () => {
    should(readMethod(' patch ')).equal('PATCH');
    should(readMethod('TRACE')).be.undefined();
    should(readMethod(7)).be.undefined();
  });

  it('zones: takes 0 or an interval from the floor to what timers allow', () => {
    should(isInterval('0', 5)).be.true();
    should(isInterval('5', 5)).be.true();
    should(isInterval('4', 5)).be.false();
    should(isInterval(String(MAX_TIMER_SECONDS), 5)).be.true();
    should(isInterval(String(MAX_TIMER_SECONDS + 1), 5)).be.false();
    should(isInterval(' ', 5)).be.false();
  });

  it('zones: reads the polling floor from settings.js, else 5 s', () => {
    should(minimumInterval(2)).equal(2);
    should(minimumInterval('x')).equal(5);
    should(minimumInterval(0)).equal(5);
  });

  it('zones: falls back to one message with all zones for an unknown output mode', () => {
    should(readOutputMode('each')).equal('each');
    should(readOutputMode('every')).equal('all');
  });

  it("zones: takes every word of the room map from the catalogue's map section", () => {
    const words = mapWords((key) => `<${key}>`);
    should(Object.keys(words).sort()).eql(Object.keys(ZONE_MAP_WORDS).sort());
    should(words.east).equal('<map.east>');
  });

  it('zone lookup: keeps zones for 0 or more seconds', () => {
    should(readMaxAge('30')).eql({ ok: true, value: 30 });
    should(readMaxAge(undefined)).eql({ ok: true, value: 60 });
    should(readMaxAge(-1).ok).be.false();
    should(readMaxAge('soon').ok).be.false();
  });
});
