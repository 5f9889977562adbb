import type { DeviceContext } from '../device';
import { type Routes, sendJsonAnswer } from '../exchange';
import type {
  ConnectionStatus,
  LedLight,
  LedName,
  SimulatorAccount,
  SimulatorModel,
  UsbEventForm,
} from '../types';

const HARDWARE_MODEL: Record<SimulatorModel, string> = { '310': 'hdl310', '410': 'hdl410', X: 'hdx' };
export const DEVICE_MAC = 'e0:e7:bb:4a:10:01';
const GREEN_SOLID: LedLight = { colour: 'green', state: 'solid' };

export interface HardwareStatusSetup {
  enrollmentCode: string;
  barUnplugged?: boolean;
  leds?: Partial<Record<LedName, LedLight>>;
  usb?: ConnectionStatus;
  components?: ConnectionStatus;
  usbEventForm?: UsbEventForm;
}

/** `/api/v1/audio/hardware` and `/api/v1/status`: what the device is, its bars, LEDs, USB and components. */
export class HardwareStatus {
  readonly #enrollmentCode: string;
  #barUnplugged: boolean;
  #leds: Record<LedName, LedLight>;
  #usb: ConnectionStatus;
  #components: ConnectionStatus;
  #usbEventForm: UsbEventForm;

  constructor(
    private readonly device: DeviceContext,
    setup: HardwareStatusSetup,
  ) {
    this.#enrollmentCode = setup.enrollmentCode;
    this.#barUnplugged = setup.barUnplugged === true;
    this.#leds = { console: GREEN_SOLID, networkA: GREEN_SOLID, ...setup.leds };
    this.#usb = setup.usb ?? 'connected';
    this.#components = setup.components ?? (this.#barUnplugged ? 'disconnected' : 'connected');
    this.#usbEventForm = setup.usbEventForm ?? 'status';
  }

  get barUnplugged(): boolean {
    return this.#barUnplugged;
  }

  get usbEventForm(): UsbEventForm {
    return this.#usbEventForm;
  }

  routes(): Routes {
    return {
      '/api/v1/audio/hardware': {
        minimumRole: 'general',
        methods: { GET: (exchange) => sendJsonAnswer(exchange, 200, this.hardware(exchange.account)) },
      },
      '/api/v1/status': {
        minimumRole: 'general',
        methods: { GET: (exchange) => sendJsonAnswer(exchange, 200, this.status()) },
      },
    };
  }

  /** The enrollment code is the admin's default password: only the admin account sees it. */
  hardware(account: SimulatorAccount | null): Record<string, unknown> {
    const model = this.device.model;
    const ports = model === '410' ? [1, 2] : [1];
    const bars = ports
      .filter((port) => !this.#barUnplugged || port !== ports[ports.length - 1])
      .map((portNumber) => ({ model: 'Bar', hardwareId: `SIMBAR00000000${portNumber}`, portNumber }));
    return {
      hardwareId: `SIM${model.padStart(3, '0')}000000001`,
      model: HARDWARE_MODEL[model],
      firmwareVersion: this.device.firmwareVersion,
      deviceVersion: '5.0.123456',
      deviceStatus: this.#barUnplugged ? 'CableUnplugged' : 'Ok',
      hardwareComponents: [{ model: 'ConnectModule2', hardwareId: 'SIMCM2000000001' }, ...bars],
      ipAddress: this.device.ipAddress,
      mac_address: DEVICE_MAC,
      enrollmentStatus: 'enrolled',
      enrollmentCode: account === 'admin' ? this.#enrollmentCode : '',
    };
  }

  status(): Record<string, unknown> {
    return {
      leds: { console: { ...this.#leds.console }, networkA: { ...this.#leds.networkA } },
      usb: { status: this.#usb },
      deviceComponents: { status: this.#components },
    };
  }

  /** The hardware event, as every account may see it (no enrollment code). */
  announceHardware(): void {
    this.device.announce('/api/v1/audio/hardware', this.hardware(null));
  }

  /** The last bar's cable out (or back): the hardware and the components change, and both are announced. */
  setBarUnplugged(unplugged: boolean): void {
    if (unplugged === this.#barUnplugged) return;
    this.#barUnplugged = unplugged;
    this.announceHardware();
    this.setComponents(unplugged ? 'disconnected' : 'connected');
  }

  setLed(led: LedName, light: LedLight): void {
    const before = this.#leds[led];
    if (before.colour === light.colour && before.state === light.state) return;
    this.#leds = { ...this.#leds, [led]: { colour: light.colour, state: light.state } };
    this.device.announce('ledStateUpdated', { colour: light.colour, state: light.state, ledType: led });
  }

  setUsb(status: ConnectionStatus): void {
    if (status === this.#usb) return;
    this.#usb = status;
    const data =
      this.#usbEventForm === 'connected' && status !== 'unknown'
        ? { connected: status === 'connected' }
        : { status };
    this.device.announce('usbConnection', data);
  }

  setUsbEventForm(form: UsbEventForm): void {
    this.#usbEventForm = form;
  }

  setComponents(status: ConnectionStatus): void {
    if (status === this.#components) return;
    this.#components = status;
    this.device.announce('deviceComponentsConnection', { overallStatus: status });
  }

  get leds(): Record<LedName, LedLight> {
    return { console: { ...this.#leds.console }, networkA: { ...this.#leds.networkA } };
  }

  get usb(): ConnectionStatus {
    return this.#usb;
  }

  get components(): ConnectionStatus {
    return this.#components;
  }
}
