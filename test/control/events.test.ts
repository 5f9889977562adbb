import should from 'should';
import { applyChangeEvent, type StateGroups } from '../../src/control';

const status = {
  leds: { console: { colour: 'green', state: 'solid' }, networkA: { colour: 'green', state: 'solid' } },
  usb: { status: 'connected' },
  deviceComponents: { status: 'connected' },
  calibrating: false,
};
const current: StateGroups = { status, switching: { soundLocationAlgorithm: 'BP' } };

const layout = {
  uiMeasurementSystem: 'METRIC',
  zones: [{ id: 'z1', label: 'Desk', types: ['Switching'], geometry: {} }],
  cameraSwitcherZoneInputMap: [{ zoneId: 'z1', inputPort: 'USB1' }],
  cameraSwitcherDefaults: {
    defaultCameraInputPort: 'HDMI',
    zonesTriggerWaitTime: 1000,
    switchToDefaultWaitTime: 5000,
  },
  soundLocationAlgorithm: 'TDOA',
};

describe('control/events: what each change event does to the state', () => {
  it('sets calibrating on "started" and clears it on "completed"', () => {
    const started = applyChangeEvent('/api/v1/audio/calibrate', { status: 'started' }, current);
    should(started.groups.status).eql({ ...status, calibrating: true });
    const completed = applyChangeEvent('/api/v1/audio/calibrate', { status: 'completed' }, started.groups);
    should(completed.groups.status?.calibrating).be.false();
    should(completed.reads).eql([]);
  });

  it('sets the LED its ledType names, leaving the other', () => {
    const outcome = applyChangeEvent(
      'ledStateUpdated',
      { colour: 'red', state: 'blinking', ledType: 'networkA' },
      current,
    );
    should(outcome.groups.status?.leds).eql({
      console: { colour: 'green', state: 'solid' },
      networkA: { colour: 'red', state: 'blinking' },
    });
  });

  it('ignores an LED its status does not report, naming it for a warning', () => {
    const outcome = applyChangeEvent(
      'ledStateUpdated',
      { colour: 'red', state: 'blinking', ledType: 'made-up-1' },
      current,
    );
    should(outcome.groups).eql({});
    should(outcome.reads).eql([]);
    should(outcome.dropped).eql({
      group: 'status',
      key: 'ledType made-up-1',
      message:
        'The device announced an LED "made-up-1" that its status does not report: the event is ignored',
    });
  });

  it('follows the documented LEDs, and any other its status reports', () => {
    const withRing: StateGroups = {
      status: { ...status, leds: { ...status.leds, ring: { colour: 'none' } } },
    };
    for (const ledType of ['networkB', 'ring']) {
      const outcome = applyChangeEvent(
        'ledStateUpdated',
        { colour: 'red', state: 'solid', ledType },
        withRing,
      );
      should(outcome.dropped).be.undefined();
      should(outcome.groups.status?.leds).have.property(ledType, { colour: 'red', state: 'solid' });
    }
  });

  it('drops an event that would make its group too large, naming the group for a warning', () => {
    const huge = { enabled: true, cameraInputs: Array.from({ length: 1001 }, (_, port) => ({ port })) };
    const outcome = applyChangeEvent('/api/v1/integrations/camera-switcher', huge, current);
    should(outcome.groups).eql({});
    should(outcome.dropped?.group).equal('cameraSwitcher');
    should(outcome.dropped?.message).match(/too large \(it holds over 1000 keys\): the event is ignored/);
  });

  it('reads a group again for a whole-group event of the wrong shape', () => {
    const outcome = applyChangeEvent('/api/v1/integrations/camera-switcher', { enabled: 'yes' }, current);
    should(outcome).eql({ groups: {}, reads: ['/api/v1/integrations/camera-switcher'] });
  });

  it('reads the USB status from {status}', () => {
    const outcome = applyChangeEvent('usbConnection', { status: 'disconnected' }, current);
    should(outcome.groups.status?.usb).eql({ status: 'disconnected' });
  });

  it('reads the USB status from {connected: bool}', () => {
    should(applyChangeEvent('usbConnection', { connected: false }, current).groups.status?.usb).eql({
      status: 'disconnected',
    });
    should(applyChangeEvent('usbConnection', { connected: true }, current).groups.status?.usb).eql({
      status: 'connected',
    });
  });

  it('prefers {status} when a USB event carries both', () => {
    const outcome = applyChangeEvent('usbConnection', { status: 'unknown', connected: true }, current);
    should(outcome.groups.status?.usb).eql({ status: 'unknown' });
  });

  it("puts the components event's overallStatus where GET /status has it", () => {
    const outcome = applyChangeEvent(
      'deviceComponentsConnection',
      { overallStatus: 'disconnected' },
      current,
    );
    should(outcome.groups.status?.deviceComponents).eql({ status: 'disconnected' });
  });

  it('builds a status group from an event before the first read', () => {
    const outcome = applyChangeEvent('usbConnection', { status: 'connected' }, {});
    should(outcome.groups.status).eql({ calibrating: false, usb: { status: 'connected' } });
  });

  it('reads the status again for a status event without a body', () => {
    for (const name of ['ledStateUpdated', 'usbConnection', 'deviceComponentsConnection']) {
      for (const data of [undefined, '', {}]) {
        should(applyChangeEvent(name, data, current)).eql({ groups: {}, reads: ['/api/v1/status'] });
      }
    }
  });

  it('takes the switching group from a layout event and reads the profiles', () => {
    const outcome = applyChangeEvent('/api/v1/room/layout', layout, current);
    should(outcome.groups.switching).eql({
      cameraSwitcherZoneInputMap: layout.cameraSwitcherZoneInputMap,
      cameraSwitcherDefaults: layout.cameraSwitcherDefaults,
      soundLocationAlgorithm: 'TDOA',
    });
    should(outcome.reads).eql(['/api/v1/room/profiles']);
  });

  it('reads the layout and the profiles for a layout event without a body', () => {
    should(applyChangeEvent('/api/v1/room/layout', {}, current)).eql({
      groups: {},
      reads: ['/api/v1/room/layout', '/api/v1/room/profiles'],
    });
  });

  it('takes the hardware event as the hardware group, without the enrollment code', () => {
    const hardware = { model: 'hdl410', firmwareVersion: '2.0.1', enrollmentCode: 'S3CRET-CODE' };
    const outcome = applyChangeEvent('/api/v1/audio/hardware', hardware, current);
    should(outcome.groups.hardware).eql({ model: 'hdl410', firmwareVersion: '2.0.1' });
    should(JSON.stringify(outcome)).not.match(/S3CRET-CODE/);
  });

  it('takes the camera switcher event as its group', () => {
    const switcher = { enabled: true, model: 'CAM230', activeCameraInput: 'USB1' };
    should(applyChangeEvent('/api/v1/integrations/camera-switcher', switcher, current).groups).eql({
      cameraSwitcher: switcher,
    });
  });

  it('reads hardware and switcher again for their events without a body', () => {
    should(applyChangeEvent('/api/v1/audio/hardware', undefined, current).reads).eql([
      '/api/v1/audio/hardware',
    ]);
    should(applyChangeEvent('/api/v1/integrations/camera-switcher', {}, current).reads).eql([
      '/api/v1/integrations/camera-switcher',
    ]);
  });

  it('reads the network configuration for its event, whatever it carries', () => {
    for (const data of [undefined, {}, { port: 'A' }]) {
      should(applyChangeEvent('/api/v1/network/configuration', data, current)).eql({
        groups: {},
        reads: ['/api/v1/network/configuration'],
      });
    }
  });

  it('merges a layout-shaped zone-input-maps event into the switching group', () => {
    const outcome = applyChangeEvent(
      '/api/v1/room/zone-input-maps',
      { cameraSwitcherZoneInputMaps: [{ zoneId: 'z1', inputPort: 'HDMI' }] },
      current,
    );
    should(outcome.groups.switching).eql({
      soundLocationAlgorithm: 'BP',
      cameraSwitcherZoneInputMap: [{ zoneId: 'z1', inputPort: 'HDMI' }],
    });
  });

  it('reads the layout for a zones event without a body', () => {
    should(applyChangeEvent('/api/v1/room/zones', undefined, current).reads).eql(['/api/v1/room/layout']);
  });

  it('changes nothing for the events it does not follow', () => {
    for (const name of ['/api/v1/audio/active-zone-control', '/api/v1/room/devices', '/api/v1/settings']) {
      should(applyChangeEvent(name, { anything: 1 }, current)).eql({ groups: {}, reads: [] });
    }
  });
});
