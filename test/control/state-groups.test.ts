import should from 'should';
import {
  changedFields,
  GROUP_RESOURCES,
  groupFromBody,
  groupOfResource,
  MAX_GROUP_BYTES,
  MAX_GROUP_KEYS,
  STATE_GROUPS,
  type StateGroupName,
  stateSummary,
  withoutSecrets,
} from '../../src/control';
import { thrown } from './helpers';

const hardwareBody = {
  hardwareId: '3001234567890AB',
  model: 'hdl410',
  firmwareVersion: '1.9.278056-0',
  deviceStatus: 'Ok',
  hardwareComponents: [{ model: 'ConnectModule2', hardwareId: 'c1' }],
  ipAddress: '192.0.2.10',
  mac_address: 'e0:e7:bb:00:00:01',
  enrollmentStatus: 'enrolled',
  enrollmentCode: 'ADMIN-SECRET-42',
};

describe('control/state-groups: each group in the shape of its GET', () => {
  it('reads each group from one resource, and names the group of each resource', () => {
    for (const group of STATE_GROUPS) should(groupOfResource(GROUP_RESOURCES[group])).equal(group);
    should(groupOfResource('/api/v1/heartbeat')).be.undefined();
  });

  it('keeps the hardware body as it is, without the enrollment code', () => {
    const { enrollmentCode: _secret, ...visible } = hardwareBody;
    should(groupFromBody('hardware', hardwareBody)).eql(visible);
  });

  it('never lets the enrollment code through, at any depth', () => {
    const nested = {
      a: [{ enrollmentCode: 'ADMIN-SECRET-42', b: { enrollmentCode: 'x' } }],
      enrollmentCode: 'y',
    };
    should(JSON.stringify(withoutSecrets(nested))).not.match(/enrollmentCode|ADMIN-SECRET-42/);
    // With what each group needs, so that every group takes it.
    const body = {
      ...hardwareBody,
      cameraSwitcherDefaults: hardwareBody,
      microphoneMute: false,
      enabled: true,
      profiles: [],
      networkConfiguration: [],
    };
    for (const group of STATE_GROUPS) {
      should(JSON.stringify(groupFromBody(group, body))).not.match(/ADMIN-SECRET-42/);
    }
  });

  it('takes the switching group out of the layout, under the schema spelling of the map', () => {
    const layout = {
      zones: [{ id: 'z1' }],
      cameraSwitcherZoneInputMaps: [{ zoneId: 'z1', inputPort: 'USB2' }],
      cameraSwitcherDefaults: {
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: 1,
        switchToDefaultWaitTime: 2,
      },
      roomDimensionsVerified: true,
    };
    should(groupFromBody('switching', layout)).eql({
      cameraSwitcherZoneInputMap: [{ zoneId: 'z1', inputPort: 'USB2' }],
      cameraSwitcherDefaults: layout.cameraSwitcherDefaults,
    });
  });

  it('keeps calibrating across a read of the status', () => {
    const body = { usb: { status: 'connected' } };
    should(groupFromBody('status', body)).eql({ usb: { status: 'connected' }, calibrating: false });
    should(groupFromBody('status', body, { calibrating: true })).eql({
      usb: { status: 'connected' },
      calibrating: true,
    });
  });

  it('refuses a body that is not an object as BAD_RESPONSE, for every group', () => {
    for (const group of STATE_GROUPS) {
      for (const body of [[1, 2, 3], 'oops', null, 42]) {
        const error = thrown(() => groupFromBody(group, body));
        should(error.code).equal('BAD_RESPONSE');
        should(error.message).match(new RegExp(`not a valid ${group} reading`));
      }
    }
  });

  it('refuses a body without a field its group needs, or with one of the wrong type', () => {
    const refusals: Array<[StateGroupName, unknown, RegExp]> = [
      ['audio', { speakerVolume: 3 }, /no microphoneMute/],
      ['audio', { microphoneMute: 'yes' }, /microphoneMute is a string, not a boolean/],
      ['audio', { microphoneMute: false, speakerVolume: '14' }, /speakerVolume is a string, not a number/],
      ['hardware', { firmwareVersion: 2 }, /firmwareVersion is a number/],
      ['status', { leds: [] }, /leds is an array, not an object/],
      ['switching', { cameraSwitcherDefaults: 'HDMI' }, /cameraSwitcherDefaults is a string/],
      ['cameraSwitcher', { model: 'CAM230' }, /no enabled/],
      ['profiles', { profiles: {} }, /profiles is an object, not an array/],
      ['network', {}, /no networkConfiguration/],
    ];
    for (const [group, body, reason] of refusals) {
      const error = thrown(() => groupFromBody(group, body));
      should(error.code).equal('BAD_RESPONSE');
      should(error.message).match(reason);
    }
  });

  it('refuses a group over its size cap as BAD_RESPONSE', () => {
    const leds = Object.fromEntries(
      Array.from({ length: MAX_GROUP_KEYS }, (_, index) => [`led${index}`, { colour: 'red' }]),
    );
    should(thrown(() => groupFromBody('status', { leds })).message).match(/over 1000 keys/);
    const long = { microphoneMute: false, note: 'x'.repeat(MAX_GROUP_BYTES) };
    should(thrown(() => groupFromBody('audio', long)).message).match(/bytes, over 65536/);
  });
});

describe('control/changes: the top-level fields that changed', () => {
  it('lists every field the first time', () => {
    should(changedFields(null, { a: 1, b: 2 })).eql(['a', 'b']);
  });

  it('compares nested values deeply', () => {
    const before = { leds: { console: { colour: 'green' } }, usb: { status: 'connected' } };
    const after = { leds: { console: { colour: 'red' } }, usb: { status: 'connected' } };
    should(changedFields(before, after)).eql(['leds']);
  });

  it('lists a field that was dropped', () => {
    should(changedFields({ a: 1, gone: true }, { a: 1 })).eql(['gone']);
  });

  it('lists nothing for equal versions', () => {
    should(changedFields({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).eql([]);
  });
});

describe('control/summary: the short status line', () => {
  const profiles = {
    profiles: [
      { profileId: 'a', name: 'Default', active: false },
      { profileId: 'b', name: 'Workshop', active: true },
    ],
  };

  it('shows the microphone, the volume and the active profile', () => {
    should(stateSummary({ audio: { microphoneMute: true, speakerVolume: 14 }, profiles })).equal(
      'mic muted · vol 14 · Workshop',
    );
  });

  it('shows what needs attention: calibrating, a bar unplugged', () => {
    should(
      stateSummary({
        audio: { microphoneMute: false },
        status: { calibrating: true },
        hardware: { deviceStatus: 'CableUnplugged' },
      }),
    ).equal('mic on · calibrating · bar unplugged');
  });

  it('is empty while nothing is known', () => {
    should(stateSummary({})).equal('');
  });
});
