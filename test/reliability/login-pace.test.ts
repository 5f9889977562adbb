/**
 * Many devices deployed at once in a real Node-RED, each against a simulator of its own: their logins
 * take turns at the pace settings.js gives (1,000 devices must not all log in in the same
 * second after a deploy or a restart), and every device still gets its first read.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api';

const { login: LOGIN_PATH, zones: ZONES_PATH } = DEVICE_PATHS;

import { LOGIN_PACE_DEFAULTS, setLoginPace } from '../../src/api/login-pacer';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';
import {
  allLogText,
  counter,
  deviceConfig,
  helper,
  nodeModules,
  tab,
  translate,
  until,
  zonesNodeDef,
} from '../nodes/support';

const DEVICES = 40;
const PACE = 10;
/**
 * Logins are counted where they arrive, at the simulators: one that started just before the process
 * stalled can arrive together with the next one, so a second may show one more than the pace.
 */
const ARRIVAL_SLACK = 1;

/** The most of `times` (ms, sorted) that fall within any one second. */
function busiestSecond(times: readonly number[]): number {
  let busiest = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while ((times[first] ?? 0) <= (times[last] ?? 0) - 1000) first += 1;
    busiest = Math.max(busiest, last - first + 1);
  }
  return busiest;
}

/** What the pacer says of a pace it refuses. */
function refusalOf(perSecond: unknown): string {
  try {
    setLoginPace({ perSecond: perSecond as number });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`the pacer took ${String(perSecond)} logins a second`);
}

/** One device config node per simulator, each with a room zones node that reads once deployed. */
function devicesFlow(simulators: readonly DeviceSimulator[]): Record<string, unknown>[] {
  return [
    tab,
    ...simulators.flatMap((simulator, index) => [
      deviceConfig(simulator, { id: `device-${index}`, name: `room-${index}` }),
      zonesNodeDef(`zones-${index}`, 'out', { device: `device-${index}`, onStart: true }),
    ]),
    { id: 'out', type: 'helper', z: 'f1' },
  ];
}

describe('reliability: logins of many devices take turns', () => {
  let simulators: DeviceSimulator[] = [];

  before(async () => {
    // One certificate for all: making forty would take longer than the test.
    const tls = await createCertificate('127.0.0.1');
    simulators = await Promise.all(
      Array.from({ length: DEVICES }, () =>
        startSimulator({ port: 0, tls: { key: tls.key, cert: tls.cert } }),
      ),
    );
  });

  afterEach(async () => {
    await helper.unload();
    helper.settings({});
    setLoginPace();
    for (const simulator of simulators) simulator.resetRecords();
  });

  after(async () => {
    await Promise.all(simulators.map((simulator) => simulator.close()));
  });

  it(`logs ${DEVICES} devices in at no more than the pace from settings.js in any second, and reads every one`, async () => {
    helper.settings({ conferenceAudioDeviceLoginsPerSecond: PACE });
    await helper.load(nodeModules(), devicesFlow(simulators));
    const out = counter(helper.getNode('out'));
    await until(
      () => out.count === DEVICES,
      () => `every device's zones (${out.count} so far)`,
      20_000,
    );
    for (const simulator of simulators) {
      should(simulator.counters.requestsByPath[LOGIN_PATH]).equal(1);
      should(simulator.counters.requestsByPath[ZONES_PATH]).equal(1);
    }
    const loginTimes = simulators
      .flatMap((simulator) => simulator.requests.filter((request) => request.path === LOGIN_PATH))
      .map((request) => request.time)
      .sort((a, b) => a - b);
    should(busiestSecond(loginTimes)).be.belowOrEqual(PACE + ARRIVAL_SLACK);
  });

  it('warns about a pace in settings.js that is not a whole number, naming the default it keeps, and reads the device', async () => {
    helper.settings({ conferenceAudioDeviceLoginsPerSecond: 'fast' });
    const [first] = simulators;
    if (first === undefined) throw new Error('no simulator');
    await helper.load(nodeModules(), devicesFlow([first]));
    const out = counter(helper.getNode('out'));
    await until(() => out.count === 1, 'the zones');
    const warning = translate('conference-audio-device.errors.loginPace', {
      message: refusalOf('fast'),
      pace: LOGIN_PACE_DEFAULTS.perSecond,
    });
    should(allLogText()).containEql(warning);
  });
});
