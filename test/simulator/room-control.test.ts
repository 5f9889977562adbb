import should from 'should';
import { sampleProfiles, sampleZones } from '../../src/simulator';
import { DeviceUnderTest, messagesOf, problemsOf } from './helpers';

const LAYOUT = '/api/v1/room/layout';
const PROFILES = '/api/v1/room/profiles';
const SWITCHER = '/api/v1/integrations/camera-switcher';
const DEFAULTS = { defaultCameraInputPort: 'USB1', zonesTriggerWaitTime: 800, switchToDefaultWaitTime: 4000 };
type Body = Record<string, unknown>;

describe('simulator: room layout, profiles and camera switcher', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  async function layout(): Promise<Body> {
    return (await device.call('GET', LAYOUT)).json as Body;
  }

  async function patchLayout(body: unknown) {
    return device.call('PATCH', LAYOUT, { body });
  }

  describe('GET /api/v1/room/layout', () => {
    it('serves the camera switching defaults beside the zones', async () => {
      await device.start();
      should(await layout()).have.properties({
        uiMeasurementSystem: 'METRIC',
        cameraSwitcherDefaults: {
          defaultCameraInputPort: 'HDMI',
          zonesTriggerWaitTime: 1000,
          switchToDefaultWaitTime: 5000,
        },
      });
    });

    it('serves soundLocationAlgorithm from firmware 2.0 on only', async () => {
      await device.start();
      should(await layout()).not.have.property('soundLocationAlgorithm');
      device.simulator.setFirmwareVersion('2.0');
      should(await layout()).have.property('soundLocationAlgorithm', 'BP');
    });

    it('adds the extra zone fields in the layout, not in the zones endpoint', async () => {
      await device.start({ layoutZoneExtras: { on: true } });
      should(((await layout()).zones as Body[]).every((zone) => zone.on === true)).be.true();
      const zones = (await device.call('GET', '/api/v1/room/zones')).json as { zones: Body[] };
      should(zones.zones.some((zone) => 'on' in zone)).be.false();
    });

    it('carries the extra zone fields in the layout event too', async () => {
      await device.start();
      device.simulator.setLayoutZoneExtras({ on: true });
      device.simulator.setZones(sampleZones().slice(0, 1));
      should(((await device.event(LAYOUT)) as { zones: Body[] }).zones[0]).have.property('on', true);
    });
  });

  describe('PATCH /api/v1/room/layout', () => {
    it('takes the complete camera switching defaults and announces the new layout', async () => {
      await device.start();
      const answer = await patchLayout({ cameraSwitcherDefaults: DEFAULTS });
      should([answer.status, answer.json]).eql([200, {}]);
      should((await layout()).cameraSwitcherDefaults).eql(DEFAULTS);
      should(((await device.event(LAYOUT)) as Body).cameraSwitcherDefaults).eql(DEFAULTS);
    });

    it('refuses defaults with a key missing, naming it, in the problem-details shape', async () => {
      await device.start();
      const answer = await patchLayout({
        cameraSwitcherDefaults: { defaultCameraInputPort: 'USB1', zonesTriggerWaitTime: 1 },
      });
      should(answer.status).equal(400);
      should(problemsOf(answer.json)[0]?.details).match(/switchToDefaultWaitTime/);
    });

    for (const [name, change] of [
      ['a port the switcher lacks', { defaultCameraInputPort: 'USB3' }],
      ['a negative wait', { zonesTriggerWaitTime: -1 }],
      ['a boolean wait', { switchToDefaultWaitTime: true }],
    ] as const) {
      it(`refuses ${name} in the problem-details shape`, async () => {
        await device.start();
        const answer = await patchLayout({ cameraSwitcherDefaults: { ...DEFAULTS, ...change } });
        should(answer.status).equal(400);
        should(problemsOf(answer.json)).have.length(1);
      });
    }

    it('refuses an unknown key in the errors shape', async () => {
      await device.start();
      const answer = await patchLayout({ roomDimensions: {} });
      should(answer.status).equal(400);
      should(messagesOf(answer.json)).eql(['Unsupported Attributes: roomDimensions.']);
    });

    it('refuses soundLocationAlgorithm below firmware 2.0 in the errors shape', async () => {
      await device.start();
      const answer = await patchLayout({ soundLocationAlgorithm: 'TDOA' });
      should(messagesOf(answer.json)).eql([
        'Unsupported Attributes: soundLocationAlgorithm. Firmware version is < 2.0.0.',
      ]);
    });

    it('sets soundLocationAlgorithm on firmware 2.0, and refuses an unknown one', async () => {
      await device.start({ firmwareVersion: '2.0.0' });
      should((await patchLayout({ soundLocationAlgorithm: 'TDOA' })).status).equal(200);
      should(await layout()).have.property('soundLocationAlgorithm', 'TDOA');
      const refused = await patchLayout({ soundLocationAlgorithm: 'tdoa' });
      should(problemsOf(refused.json)).have.length(1);
    });

    it('writes nothing when one key of the body is bad', async () => {
      await device.start({ firmwareVersion: '2.0.0' });
      await patchLayout({ cameraSwitcherDefaults: DEFAULTS, soundLocationAlgorithm: 'Loud' });
      should((await layout()).cameraSwitcherDefaults).have.property('defaultCameraInputPort', 'HDMI');
    });

    it('takes a zone-to-camera map in either spelling', async () => {
      await device.start();
      const [presenter] = sampleZones() as { id: string }[];
      const map = [{ zoneId: presenter?.id, inputPort: 'USB2' }];
      should((await patchLayout({ cameraSwitcherZoneInputMaps: map })).status).equal(200);
      should(await layout()).have.property('cameraSwitcherZoneInputMap', map);
    });

    it('refuses a map entry with a bad port', async () => {
      await device.start();
      const answer = await patchLayout({ cameraSwitcherZoneInputMap: [{ zoneId: 'a', inputPort: 'SDI' }] });
      should(problemsOf(answer.json)).have.length(1);
    });

    it('refuses an empty body in the problem-details shape', async () => {
      await device.start();
      should(problemsOf((await patchLayout({})).json)).have.length(1);
    });

    it('announces nothing when the write changes nothing', async () => {
      await device.start();
      await patchLayout({
        cameraSwitcherDefaults: {
          defaultCameraInputPort: 'HDMI',
          zonesTriggerWaitTime: 1000,
          switchToDefaultWaitTime: 5000,
        },
      });
      device.simulator.emitChange('marker', {});
      await device.event('marker');
      should(device.changes.events.map((event) => event.event)).eql(['marker']);
    });

    it('answers 409 on a model without zones', async () => {
      await device.start({ model: '310' });
      const answer = await patchLayout({ cameraSwitcherDefaults: DEFAULTS });
      should(answer.status).equal(409);
    });
  });

  describe('room profiles', () => {
    const [standard, workshop] = sampleProfiles();

    it('lists the profiles with exactly one active', async () => {
      await device.start();
      const { profiles } = (await device.call('GET', PROFILES)).json as { profiles: Body[] };
      should(profiles.map((profile) => [profile.name, profile.active])).eql([
        ['Standard', true],
        ['Workshop', false],
        ['Lecture', false],
      ]);
    });

    it('switches the active profile and announces it as a layout change', async () => {
      await device.start();
      const answer = await device.call('POST', `${PROFILES}/${workshop?.profileId}/active`);
      should([answer.status, answer.json]).eql([200, {}]);
      await device.event(LAYOUT);
      const { profiles } = (await device.call('GET', PROFILES)).json as { profiles: Body[] };
      should(profiles.find((profile) => profile.active)?.name).equal('Workshop');
    });

    it("brings the profile's own zones along", async () => {
      const zones = sampleZones().slice(0, 1);
      await device.start({ profiles: [standard, { ...workshop, zones }] as never });
      await device.call('POST', `${PROFILES}/${workshop?.profileId}/active`);
      should(((await device.event(LAYOUT)) as Body).zones).eql(zones);
    });

    it('answers 404 in the problem-details shape for an unknown id', async () => {
      await device.start();
      const answer = await device.call('POST', `${PROFILES}/no-such-profile/active`);
      should(answer.status).equal(404);
      should(problemsOf(answer.json)[0]?.details).match(/no-such-profile/);
    });

    it('answers 409 Unsupported device type on a 310, for the list and the switch', async () => {
      await device.start({ model: '310' });
      for (const [method, path] of [
        ['GET', PROFILES],
        ['POST', `${PROFILES}/${standard?.profileId}/active`],
      ] as const) {
        const answer = await device.call(method, path);
        should(answer.status).equal(409);
        should(messagesOf(answer.json)).eql(['Unsupported device type']);
      }
    });
  });

  describe('camera switcher', () => {
    it('serves the switcher', async () => {
      await device.start();
      const switcher = (await device.call('GET', SWITCHER)).json as Body;
      should(switcher).have.properties({ enabled: true, port: 443, model: 'CAM230', integrationErrors: [] });
      should(switcher).have.property('macAddress');
    });

    it('answers 202 to a PATCH and announces the change', async () => {
      await device.start();
      const answer = await device.call('PATCH', SWITCHER, { body: { enabled: false } });
      should([answer.status, answer.json]).eql([202, {}]);
      should(await device.event(SWITCHER)).have.property('enabled', false);
    });

    it('never serves back the credentials it was given', async () => {
      await device.start();
      await device.call('PATCH', SWITCHER, { body: { username: 'cam', password: 'cam-secret' } });
      should((await device.call('GET', SWITCHER)).text).not.match(/cam-secret/);
    });

    for (const [name, body, message] of [
      ['an unknown key', { colour: 'red' }, 'Unsupported Attributes: colour.'],
      [
        'enabled that is not a boolean',
        { enabled: 'yes' },
        'Unsupported Attributes: enabled. Expected boolean.',
      ],
      ['an empty body', {}, 'At least one valid camera switcher setting must be included.'],
    ] as const) {
      it(`refuses ${name}`, async () => {
        await device.start();
        const answer = await device.call('PATCH', SWITCHER, { body });
        should(answer.status).equal(400);
        should(messagesOf(answer.json)).eql([message]);
      });
    }
  });
});
