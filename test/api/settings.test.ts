import { isIPv6 as nodeIsIPv6 } from 'node:net';
import should from 'should';
import { isIPv6 } from '../../src/api/http-syntax';
import {
  clientSettingsFor,
  clientSettingsOf,
  deviceSettingsFromProperties,
  deviceSettingsProblems,
  resolveClientSettings,
} from '../../src/api/settings';
import { checkDeviceProperty } from '../../src/api/settings-rules';
import { DeviceError } from '../../src/errors';
import { MAX_WINDOW_LIMIT } from '../../src/timing/sliding-window';
import { readRoomZones } from '../../src/zones';
import { useHarness } from './helpers';

/** A whole-value reference, as Node-RED leaves it when no such variable is set. */
const UNSET_VARIABLE = `\${DEVICE_VALUE}`;

function refusal(call: () => unknown): DeviceError {
  try {
    call();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    should((error as DeviceError).code).equal('INVALID_CONFIG');
    return error as DeviceError;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('api/settings: one model for library options and config node properties', () => {
  it('gives a library user trust on first use (pin) by default, as the config node does', () => {
    const settings = resolveClientSettings({ host: '10.0.0.5', account: 'general', password: '' });
    should(settings.tls).eql({ mode: 'pin' });
    should(deviceSettingsFromProperties({ host: '10.0.0.5' }).tls).eql({ mode: 'pin' });
  });

  it('applies the same defaults to both: port 443, general, node-red, Vendor, 10 s', () => {
    const library = resolveClientSettings({ host: '10.0.0.5', account: 'general', password: '' });
    const node = deviceSettingsFromProperties({ host: '10.0.0.5' });
    for (const key of ['port', 'account', 'clientId', 'vendor', 'timeoutMs'] as const) {
      should(library[key]).equal(node[key], key);
    }
  });

  it('reads what Node-RED substituted for an environment variable: Node-RED substituted: a port and a timeout as text', () => {
    const settings = deviceSettingsFromProperties({ host: 'device.local', port: '8443', timeout: '2.5' });
    should(settings.port).equal(8443);
    should(settings.timeoutMs).equal(2500);
  });

  for (const property of ['host', 'port', 'timeout', 'clientId'] as const) {
    it(`names ${property} and its variable when Node-RED left \${DEVICE_VALUE} unsubstituted`, () => {
      const error = refusal(() =>
        deviceSettingsFromProperties({ host: 'device.local', [property]: UNSET_VARIABLE }),
      );
      should(error.message).match(/DEVICE_VALUE is not set/);
      should(error.message).startWith(
        { host: 'Host', port: 'Port', timeout: 'Timeout', clientId: 'Client id' }[property],
      );
    });
  }

  for (const option of ['maxRequestsPerMinute', 'maxStreamConnectsPerMinute'] as const) {
    it(`refuses a ${option} so high that its window would keep unbounded times`, () => {
      const base = { host: '10.0.0.5', account: 'general', password: '' } as const;
      should(refusal(() => resolveClientSettings({ ...base, [option]: 1e9 })).message).match(
        new RegExp(`^${option} .*at most ${MAX_WINDOW_LIMIT}`),
      );
      should(resolveClientSettings({ ...base, [option]: MAX_WINDOW_LIMIT })[option]).equal(MAX_WINDOW_LIMIT);
    });
  }

  it('names the property of a substituted value that is out of range', () => {
    should(refusal(() => deviceSettingsFromProperties({ host: 'a', port: '70000' })).message).match(
      /^Port .*1 to 65535.*'70000'/,
    );
    should(refusal(() => deviceSettingsFromProperties({ host: 'a', timeout: '0' })).message).match(
      /^Timeout .*more than 0/,
    );
  });

  it('refuses an IPv6 zone index with the reason (URLs cannot carry it)', () => {
    const error = refusal(() => deviceSettingsFromProperties({ host: 'fe80::1%eth0' }));
    should(error.message).match(/zone index \(%eth0\).*HTTPS URLs cannot carry/);
    should(checkDeviceProperty('host', '[fe80::1%25eth0]', { editing: true })?.reason).equal('hostZoneIndex');
  });

  it('reads the audio interval with the other properties, as milliseconds', () => {
    should(deviceSettingsFromProperties({ host: 'a', audioInterval: '0.5' }).audioIntervalMs).equal(500);
    should(deviceSettingsFromProperties({ host: 'a', audioInterval: '' }).audioIntervalMs).equal(2000);
    should(refusal(() => deviceSettingsFromProperties({ host: 'a', audioInterval: 61 })).message).match(
      /^Audio interval .*0 to 60/,
    );
  });

  it('names every refused property in one reading', () => {
    const problems = deviceSettingsProblems({ host: '', port: '0', timeout: '10', audioInterval: '61' });
    should(problems.map((problem) => problem.property)).eql(['host', 'port', 'audioInterval']);
  });

  it('reads numbers as decimals only: a port of 0x1BB is a typo, not 443', () => {
    should(refusal(() => deviceSettingsFromProperties({ host: 'a', port: '0x1BB' })).message).match(/^Port /);
    should(refusal(() => deviceSettingsFromProperties({ host: 'a', timeout: '1e1' })).message).match(
      /^Timeout /,
    );
  });

  it('hands the client checked settings to run with as they are, and checks anything else', () => {
    const settings = deviceSettingsFromProperties({ host: 'FD00::1', port: '8443' });
    should(settings.baseUrl).equal('https://[fd00::1]:8443');
    const checked = clientSettingsOf(settings, { password: 'pw' });
    should(clientSettingsFor(checked)).equal(checked);
    should(Object.isFrozen(checked)).be.true();
    // A copy is not what the settings model made: it is checked as a library user's options.
    should(refusal(() => clientSettingsFor({ ...checked, port: 0 })).message).match(/1 to 65535/);
  });

  it('lets the editor accept an environment variable reference in host, port, timeout and client id', () => {
    for (const property of ['host', 'port', 'timeout', 'clientId'] as const) {
      should(checkDeviceProperty(property, UNSET_VARIABLE, { editing: true })).be.undefined();
    }
  });

  it("recognises IPv6 addresses exactly as Node's own parser does", () => {
    for (const text of [
      '::',
      '::1',
      'fe80::1',
      'fd00:0:0:0:0:0:0:1',
      '1:2:3:4:5:6:7::',
      '::ffff:192.168.1.2',
      '1:2:3:4:5:6:1.2.3.4',
      '1.2.3.4::',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':1::',
      '1:',
      '12345::',
      'g::1',
      '::ffff:999.1.1.1',
      '1:2:3:4:5:6:7:1.2.3.4',
    ]) {
      should(isIPv6(text)).equal(nodeIsIPv6(text), text);
    }
  });
});

describe('api/settings: a library client without TLS options', () => {
  const harness = useHarness();

  it('pins the certificate the device presents on first use', async () => {
    const client = harness.client({ tls: undefined });
    const pinned = new Promise<string>((resolve) => client.once('pinned', resolve));
    await readRoomZones(client);
    should(await pinned).equal(harness.simulator.fingerprint256);
    should(client.pinnedFingerprint).equal(harness.simulator.fingerprint256);
  });
});
