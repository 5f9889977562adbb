import should from 'should';
import { MAX_DELAY_MS } from '../../src/api/settings-rules';
import { mergeSwitchingDefaults, validateSwitchingDefaults } from '../../src/control';
import { thrown } from './helpers';

const lastRead = {
  defaultCameraInputPort: 'HDMI',
  zonesTriggerWaitTime: 1000,
  switchToDefaultWaitTime: 5000,
};

describe('control/switching-defaults: the complete object the device takes', () => {
  it('merges one changed key with the two last read', () => {
    should(mergeSwitchingDefaults({ zonesTriggerWaitTime: 250 }, lastRead)).eql({
      defaultCameraInputPort: 'HDMI',
      zonesTriggerWaitTime: 250,
      switchToDefaultWaitTime: 5000,
    });
  });

  it('sends a complete change as it is, even with nothing read', () => {
    const complete = { defaultCameraInputPort: 'USB1', zonesTriggerWaitTime: 0, switchToDefaultWaitTime: 0 };
    should(mergeSwitchingDefaults(complete, undefined)).eql(complete);
  });

  it('refuses a partial change when the device reports no defaults: a model without camera switching', () => {
    const error = thrown(() => mergeSwitchingDefaults({ zonesTriggerWaitTime: 250 }, undefined));
    should(error.code).equal('UNSUPPORTED_MODEL');
  });

  it('refuses a merge that still lacks a key, naming it', () => {
    const error = thrown(() =>
      mergeSwitchingDefaults({ zonesTriggerWaitTime: 250 }, { defaultCameraInputPort: 'HDMI' }),
    );
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/switchToDefaultWaitTime/);
  });

  it('refuses a port that is not HDMI, USB1 or USB2', () => {
    const error = thrown(() => validateSwitchingDefaults({ defaultCameraInputPort: 'USB3' }));
    should(error.code).equal('INVALID_INPUT');
    should(error.message).match(/defaultCameraInputPort must be one of HDMI, USB1, USB2/);
  });

  it('refuses a negative, fractional or boolean wait time', () => {
    for (const bad of [-1, 1.5, true, '100']) {
      should(thrown(() => validateSwitchingDefaults({ switchToDefaultWaitTime: bad })).code).equal(
        'INVALID_INPUT',
      );
    }
  });

  it('takes a wait time up to the longest delay the active zone node accepts', () => {
    should(validateSwitchingDefaults({ zonesTriggerWaitTime: MAX_DELAY_MS })).eql({
      zonesTriggerWaitTime: MAX_DELAY_MS,
    });
  });

  it('refuses a wait time beyond it, such as 1e300, naming the bound', () => {
    for (const tooLong of [MAX_DELAY_MS + 1, 1e300]) {
      const error = thrown(() => validateSwitchingDefaults({ switchToDefaultWaitTime: tooLong }));
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(new RegExp(`from 0 to ${MAX_DELAY_MS}`));
    }
  });

  it('names NaN and Infinity as such, not as null', () => {
    should(thrown(() => validateSwitchingDefaults({ zonesTriggerWaitTime: Number.NaN })).message).match(
      /got NaN$/,
    );
    should(thrown(() => validateSwitchingDefaults({ zonesTriggerWaitTime: Infinity })).message).match(
      /got Infinity$/,
    );
  });

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    it(`refuses the key ${key}, at the top or deeper, sending nothing`, () => {
      const top = JSON.parse(`{"zonesTriggerWaitTime": 250, "${key}": {"polluted": true}}`);
      const deeper = JSON.parse(`{"futureKey": {"${key}": {"polluted": true}}}`);
      for (const change of [top, deeper]) {
        const error = thrown(() => validateSwitchingDefaults(change));
        should(error.code).equal('INVALID_INPUT');
        should(error.message).match(new RegExp(`"${key}"`));
      }
    });
  }

  it('refuses an empty change', () => {
    should(thrown(() => validateSwitchingDefaults({})).code).equal('INVALID_INPUT');
  });

  it('passes a key it does not know to the device', () => {
    should(validateSwitchingDefaults({ futureKey: 1 })).eql({ futureKey: 1 });
  });
});
