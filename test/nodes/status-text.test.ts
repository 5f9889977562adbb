/**
 * Statuses are readable text in the runtime's language: a Status node wired for monitoring, a dashboard
 * or a log gets "auth failed" and "3 zones · 14:02:07", never a catalogue key with parameters as JSON. The
 * same fault reads the same on every node. The catalogue checks: every status view has English and
 * German words, plural forms included.
 */
import should from 'should';
import type { ConnectionState } from '../../src/api/types';
import {
  connectionStatus,
  faultStatus,
  invalidConfigStatus,
  type StatusView,
  statusMessage,
} from '../../src/nodes/status/status';
import { paletteTypes } from '../support/node-types';
import {
  counter,
  deviceConfig,
  helper,
  nodeModules,
  requireFromRuntime,
  tab,
  translatorFor,
  until,
  useSimulator,
  zonesNodeDef,
} from './support';

const english = translatorFor('en-US');
const german = translatorFor('de');
const inCatalogue =
  (type: string, translate: typeof english) => (key: string, params?: Record<string, string | number>) =>
    translate(`${type}.${key}`, params);
const deviceText = (view: StatusView, translate = english) =>
  statusMessage(inCatalogue('conference-audio-device', translate), view).text;

const statusModule = requireFromRuntime<Parameters<typeof nodeModules>[0]>(
  '@node-red/nodes/core/common/25-status.js',
);

describe('status texts', () => {
  describe('in a running flow', () => {
    const PASSWORD = 'Sup3r-Secret-Pw!';
    let sim: Parameters<typeof deviceConfig>[0];
    useSimulator({ passwords: { general: PASSWORD } }, (started) => {
      sim = started;
    });

    async function monitored(password: string) {
      await helper.load(
        nodeModules(statusModule),
        [
          tab,
          deviceConfig(sim),
          zonesNodeDef('n-zones', 'out', { onStart: true }),
          { id: 'out', type: 'helper', z: 'f1' },
          { id: 'n-status', type: 'status', z: 'f1', scope: ['n-zones'], wires: [['watched']] },
          { id: 'watched', type: 'helper', z: 'f1' },
        ],
        { device: { password } },
      );
      return counter(helper.getNode('watched'));
    }

    const texts = (watched: ReturnType<typeof counter>) =>
      watched.messages.map((msg) => String((msg.status as { text?: unknown } | undefined)?.text));

    it('gives a Status node "auth failed" for a refused login, as the device node words it', async () => {
      const watched = await monitored(`${PASSWORD}-wrong`);
      await until(() => texts(watched).includes('auth failed'), `"auth failed" among ${texts(watched)}`);
    });

    it('gives a Status node the zone count and time as text, never a key with JSON', async () => {
      const watched = await monitored(PASSWORD);
      await until(
        () => texts(watched).some((text) => /^3 zones · \d\d:\d\d:\d\d$/.test(text)),
        'the read status',
      );
      for (const text of texts(watched)) should(text).not.match(/[{}]|conference-audio-/);
    });
  });

  it('reads "1 zone" and "3 zones" in English, "1 Zone" and "3 Zonen" in German', () => {
    const read = (count: number, translate: typeof english) =>
      inCatalogue('conference-audio-zones', translate)('status.read', { count, time: '14:02:07' });
    should(read(1, english)).equal('1 zone · 14:02:07');
    should(read(3, english)).equal('3 zones · 14:02:07');
    should(read(0, english)).equal('0 zones · 14:02:07');
    should(read(1, german)).equal('1 Zone · 14:02:07');
    should(read(3, german)).equal('3 Zonen · 14:02:07');
  });

  it('has every connection status and fault in English and German, different where the words differ', () => {
    const states: ConnectionState[] = [
      'idle',
      'connecting',
      'connected',
      'auth_failed',
      'rate_limited',
      'unreachable',
    ];
    const views = [
      ...states.map((state) => connectionStatus(state)),
      connectionStatus('unreachable', 'TIMEOUT'),
      connectionStatus('unreachable', 'TLS'),
      invalidConfigStatus(),
      faultStatus('BAD_RESPONSE'),
    ];
    for (const view of views) {
      should(deviceText(view)).not.equal(`conference-audio-device.${view.key}`, `${view.key} in English`);
      should(deviceText(view, german)).not.equal(
        `conference-audio-device.${view.key}`,
        `${view.key} in German`,
      );
    }
    should(deviceText(connectionStatus('connected'), german)).equal('verbunden');
  });

  it('words a fault the same as the connection status of the device node', () => {
    should(deviceText(faultStatus('AUTH_FAILED'))).equal(deviceText(connectionStatus('auth_failed')));
    should(deviceText(faultStatus('TIMEOUT'))).equal(deviceText(connectionStatus('unreachable', 'TIMEOUT')));
    should(deviceText(faultStatus('BAD_RESPONSE'))).equal('failed: BAD_RESPONSE');
  });

  it('has "no device" in the catalogue of every node type that shows it', () => {
    for (const type of paletteTypes) {
      should(inCatalogue(type, english)('status.noDevice')).equal('no device');
      should(inCatalogue(type, german)('status.noDevice')).equal('kein Gerät');
    }
  });
});
