import should from 'should';
import { DeviceUnderTest } from './helpers';

const HARDWARE = '/api/v1/audio/hardware';
const NETWORK = '/api/v1/network/configuration';
type Body = Record<string, unknown>;

describe('simulator: hardware, status and network', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  async function get(path: string, token?: string): Promise<Body> {
    const answer = await device.call('GET', path, token === undefined ? {} : { token });
    should(answer.status).equal(200);
    return answer.json as Body;
  }

  describe('GET /api/v1/audio/hardware', () => {
    it('describes a 410 with its connect module and two bars', async () => {
      await device.start();
      const hardware = await get(HARDWARE);
      should(hardware).have.properties({
        model: 'hdl410',
        firmwareVersion: '1.9.278056-0',
        deviceStatus: 'Ok',
        ipAddress: '127.0.0.1',
        mac_address: 'e0:e7:bb:4a:10:01',
        enrollmentStatus: 'enrolled',
      });
      should((hardware.hardwareComponents as Body[]).map((part) => [part.model, part.portNumber])).eql([
        ['ConnectModule2', undefined],
        ['Bar', 1],
        ['Bar', 2],
      ]);
    });

    it('describes a 310 with one bar', async () => {
      await device.start({ model: '310' });
      const hardware = await get(HARDWARE);
      should(hardware.model).equal('hdl310');
      should((hardware.hardwareComponents as Body[]).filter((part) => part.model === 'Bar')).have.length(1);
    });

    it('shows the enrollment code to the admin account only', async () => {
      await device.start();
      should((await get(HARDWARE)).enrollmentCode).equal('');
      should((await get(HARDWARE, device.admin)).enrollmentCode).equal(device.simulator.enrollmentCode);
    });

    it('announces the hardware, without the enrollment code, when the firmware version changes', async () => {
      await device.start();
      device.simulator.setFirmwareVersion('2.0.0');
      should(await device.event(HARDWARE)).have.properties({ firmwareVersion: '2.0.0', enrollmentCode: '' });
    });

    it('announces the hardware when the model changes', async () => {
      await device.start();
      device.simulator.setModel('310');
      should(await device.event(HARDWARE)).have.property('model', 'hdl310');
    });
  });

  describe('a speaker bar unplugged', () => {
    it('reports the cable, one bar fewer and disconnected components', async () => {
      await device.start({ barUnplugged: true });
      const hardware = await get(HARDWARE);
      should(hardware.deviceStatus).equal('CableUnplugged');
      should((hardware.hardwareComponents as Body[]).filter((part) => part.model === 'Bar')).have.length(1);
      should(((await get('/api/v1/status')).deviceComponents as Body).status).equal('disconnected');
    });

    it('announces the hardware and the components when a bar is unplugged and plugged back', async () => {
      await device.start();
      device.simulator.setBarUnplugged(true);
      should(await device.event(HARDWARE)).have.property('deviceStatus', 'CableUnplugged');
      should(await device.event('deviceComponentsConnection')).eql({ overallStatus: 'disconnected' });
      device.simulator.setBarUnplugged(false);
      should(await device.event('deviceComponentsConnection', 2)).eql({ overallStatus: 'connected' });
    });
  });

  describe('GET /api/v1/status', () => {
    it('serves the LEDs, USB and components', async () => {
      await device.start({ leds: { networkA: { colour: 'yellow', state: 'pulsing' } }, usb: 'disconnected' });
      should(await get('/api/v1/status')).eql({
        leds: {
          console: { colour: 'green', state: 'solid' },
          networkA: { colour: 'yellow', state: 'pulsing' },
        },
        usb: { status: 'disconnected' },
        deviceComponents: { status: 'connected' },
      });
    });

    it('announces an LED change with its type', async () => {
      await device.start();
      device.simulator.setLed('console', { colour: 'red', state: 'blinking' });
      should(await device.event('ledStateUpdated')).eql({
        colour: 'red',
        state: 'blinking',
        ledType: 'console',
      });
      should(((await get('/api/v1/status')).leds as Body).console).eql({ colour: 'red', state: 'blinking' });
    });

    it('announces USB as {status}', async () => {
      await device.start();
      device.simulator.setUsb('disconnected');
      should(await device.event('usbConnection')).eql({ status: 'disconnected' });
    });

    it('announces USB as {connected} when set to that form', async () => {
      await device.start({ usbEventForm: 'connected' });
      device.simulator.setUsb('disconnected');
      should(await device.event('usbConnection')).eql({ connected: false });
    });

    it('announces nothing when a setting is set to the value it has', async () => {
      await device.start();
      device.simulator.setUsb('connected');
      device.simulator.setLed('console', { colour: 'green', state: 'solid' });
      device.simulator.emitChange('marker', {});
      await device.event('marker');
      should(device.changes.events.map((event) => event.event)).eql(['marker']);
    });
  });

  describe('GET /api/v1/network/configuration', () => {
    it("serves port A with the device's address", async () => {
      await device.start();
      const [portA] = (await get(NETWORK)).networkConfiguration as Body[];
      should(portA).have.properties({
        port: 'A',
        isStatic: false,
        ip: '127.0.0.1',
        mac: 'e0:e7:bb:4a:10:01',
      });
      should(portA?.dns).be.an.Array();
    });

    it('announces a change with {}', async () => {
      await device.start();
      device.simulator.setNetwork({ isStatic: true });
      should(await device.event(NETWORK)).eql({});
      should(((await get(NETWORK)).networkConfiguration as Body[])[0]?.isStatic).be.true();
    });

    it('announces a change with an empty body when set so', async () => {
      await device.start({ bodylessEvents: [NETWORK] });
      device.simulator.setNetwork({ gateway: '192.0.2.254' });
      should(await device.event(NETWORK)).be.undefined();
    });

    it('refuses a field that port A does not have', async () => {
      await device.start();
      should(() => device.simulator.setNetwork({ ip: '10.0.0.1' } as never)).throw(TypeError);
    });
  });
});
