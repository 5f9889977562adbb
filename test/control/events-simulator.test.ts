/** The change events the simulator sends, in each variant, read by applyChangeEvent. */
import should from 'should';
import { CHANGE_EVENTS, DEVICE_PATHS } from '../../src/api/protocol';
import { applyChangeEvent, type StateGroups } from '../../src/control';
import { DeviceUnderTest } from '../simulator/helpers';

describe('control/events against the simulator', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  const none: StateGroups = {};

  it('reads the USB event in its {status} form', async () => {
    await device.start({ usbEventForm: 'status' });
    device.simulator.setUsb('disconnected');
    const data = await device.event(CHANGE_EVENTS.usbConnection);
    should(applyChangeEvent(CHANGE_EVENTS.usbConnection, data, none).groups.status?.usb).eql({
      status: 'disconnected',
    });
  });

  it('reads the USB event in its {connected} form', async () => {
    await device.start({ usbEventForm: 'connected' });
    device.simulator.setUsb('disconnected');
    const data = await device.event(CHANGE_EVENTS.usbConnection);
    should(applyChangeEvent(CHANGE_EVENTS.usbConnection, data, none).groups.status?.usb).eql({
      status: 'disconnected',
    });
  });

  it('sets the LED the event names', async () => {
    await device.start();
    device.simulator.setLed('networkA', { colour: 'red', state: 'blinking' });
    const data = await device.event(CHANGE_EVENTS.ledState);
    should(applyChangeEvent(CHANGE_EVENTS.ledState, data, none).groups.status?.leds).eql({
      networkA: { colour: 'red', state: 'blinking' },
    });
  });

  it('reads a bar unplugged from the components event', async () => {
    await device.start();
    device.simulator.setBarUnplugged(true);
    const data = await device.event(CHANGE_EVENTS.componentsConnection);
    should(
      applyChangeEvent(CHANGE_EVENTS.componentsConnection, data, none).groups.status?.deviceComponents,
    ).eql({
      status: 'disconnected',
    });
  });

  it('follows a calibration from started to completed', async () => {
    await device.start({ calibrationMs: 50 });
    await device.call('POST', DEVICE_PATHS.calibrate);
    const started = applyChangeEvent(
      CHANGE_EVENTS.calibrate,
      await device.event(CHANGE_EVENTS.calibrate),
      none,
    );
    should(started.groups.status?.calibrating).be.true();
    const completed = applyChangeEvent(
      CHANGE_EVENTS.calibrate,
      await device.event(CHANGE_EVENTS.calibrate, 2),
      started.groups,
    );
    should(completed.groups.status?.calibrating).be.false();
  });

  it('reads the network configuration again on its event', async () => {
    await device.start();
    device.simulator.setNetwork({ isStatic: true });
    const data = await device.event(CHANGE_EVENTS.networkConfiguration);
    should(applyChangeEvent(CHANGE_EVENTS.networkConfiguration, data, none).reads).eql([
      DEVICE_PATHS.networkConfiguration,
    ]);
  });

  it('reads the profiles again after a profile switch, which comes as a layout event', async () => {
    await device.start();
    const profiles = (await device.call('GET', DEVICE_PATHS.profiles)).json as {
      profiles: { profileId: string }[];
    };
    device.simulator.activateProfile(profiles.profiles[1]?.profileId ?? '');
    const data = await device.event(CHANGE_EVENTS.layout);
    const outcome = applyChangeEvent(CHANGE_EVENTS.layout, data, none);
    should(outcome.reads).eql([DEVICE_PATHS.profiles]);
    should(outcome.groups.switching).have.property('cameraSwitcherDefaults');
  });

  it('reads the layout and the profiles for a layout event sent without a body', async () => {
    await device.start({ bodylessEvents: [CHANGE_EVENTS.layout] });
    const profiles = (await device.call('GET', DEVICE_PATHS.profiles)).json as {
      profiles: { profileId: string }[];
    };
    device.simulator.activateProfile(profiles.profiles[1]?.profileId ?? '');
    const data = await device.event(CHANGE_EVENTS.layout);
    should(applyChangeEvent(CHANGE_EVENTS.layout, data, none)).eql({
      groups: {},
      reads: [DEVICE_PATHS.layout, DEVICE_PATHS.profiles],
    });
  });

  it('takes the hardware event as the hardware group without the enrollment code', async () => {
    await device.start();
    device.simulator.setFirmwareVersion('2.0.1');
    const data = await device.event(CHANGE_EVENTS.hardware);
    const hardware = applyChangeEvent(CHANGE_EVENTS.hardware, data, none).groups.hardware;
    should(hardware).have.property('firmwareVersion', '2.0.1');
    should(JSON.stringify(hardware)).not.containEql(device.simulator.enrollmentCode);
    should(hardware).not.have.property('enrollmentCode');
  });
});
