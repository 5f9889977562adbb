/**
 * A pin store that exists but cannot be read is a refusal, never a first use: with TLS `pin` and no
 * fingerprint, every node of the device shows "certificate rejected" and gets `TLS` at its Catch node,
 * naming the file and what is wrong with it; no login reaches the device and the file is left as it was.
 * A fingerprint entered in the device node (what "Accept the new certificate" does) still connects.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import should from 'should';
import { DEVICE_PATHS } from '../../src/api';

const LOGIN_PATH = DEVICE_PATHS.login;

import { PIN_FILE_NAME } from '../../src/device/pin-storage';
import { allLogText, helper, until } from '../nodes/support';
import { DeviceFlow, requestNode } from './device-flows';
import { useReliabilityHarness } from './harness';

const OTHER_PRINT = `${'AB:'.repeat(31)}AB`;
/** The pins of two other devices, as the file holds them. */
const OTHER_PINS = JSON.stringify({
  'other-1': { address: '10.0.0.1:443', fingerprint: OTHER_PRINT },
  'other-2': { address: '10.0.0.2:443', fingerprint: OTHER_PRINT },
});

describe('reliability: a pin store that cannot be read', () => {
  const rig = useReliabilityHarness();
  let userDir: string;
  let pinFile: string;

  beforeEach(() => {
    userDir = mkdtempSync(path.join(tmpdir(), 'ca-pin-store-'));
    pinFile = path.join(userDir, PIN_FILE_NAME);
  });

  afterEach(() => {
    // A file the test made unreadable must be removable.
    if (statSync(pinFile, { throwIfNoEntry: false })?.isFile()) chmodSync(pinFile, 0o600);
    rmSync(userDir, { recursive: true, force: true });
  });

  /** The device in pin mode, with no fingerprint unless one is given, in a Node-RED whose user directory holds the store. */
  function deploy(fingerprint = ''): Promise<DeviceFlow> {
    helper.settings({ userDir });
    return DeviceFlow.deploy(rig, requestNode(), { device: { tls: 'pin', fingerprint } });
  }

  function logins(): number {
    return rig.simulator.requests.filter((request) => request.path === LOGIN_PATH).length;
  }

  /** Deploys, sends one input and checks the refusal; returns its message. */
  async function refused(): Promise<string> {
    const flow = await deploy();
    const message = await flow.fails('TLS');
    should(message).containEql(pinFile);
    should(flow.statusTexts()).containEql('certificate rejected');
    should(rig.simulator.requests).have.length(0);
    should(logins()).equal(0);
    return message;
  }

  it('refuses the device, naming the file, when the store is a truncated file', async () => {
    const truncated = OTHER_PINS.slice(0, 40);
    writeFileSync(pinFile, truncated, { mode: 0o600 });
    should(await refused()).match(/is not valid JSON/);
    should(readFileSync(pinFile, 'utf8')).equal(truncated);
  });

  it('refuses the device when a directory stands where the store should be', async () => {
    mkdirSync(pinFile);
    should(await refused()).match(/is a directory/);
    should(statSync(pinFile).isDirectory()).be.true();
  });

  it('refuses the device when the store holds JSON of another shape', async () => {
    const list = JSON.stringify([{ address: '10.0.0.1:443', fingerprint: OTHER_PRINT }]);
    writeFileSync(pinFile, list, { mode: 0o600 });
    should(await refused()).match(/holds an array, not an object of pins/);
    should(readFileSync(pinFile, 'utf8')).equal(list);
  });

  it("refuses the device when the store's entry for it is not a pin", async () => {
    const broken = JSON.stringify({ device: { address: '127.0.0.1', fingerprint: 'not a fingerprint' } });
    writeFileSync(pinFile, broken, { mode: 0o600 });
    should(await refused()).match(/holds an entry for config node device that is not/);
    should(readFileSync(pinFile, 'utf8')).equal(broken);
  });

  it('refuses the device when the store cannot be read (mode 000)', async function () {
    // Root reads any file whatever its mode.
    if (process.getuid?.() === 0) this.skip();
    writeFileSync(pinFile, OTHER_PINS, { mode: 0o600 });
    chmodSync(pinFile, 0o000);
    should(await refused()).match(/permission denied/);
    should(statSync(pinFile).mode & 0o777).equal(0o000);
  });

  it("shows the refusal on the device's nodes from the deploy on, and logs it once, naming the file", async () => {
    writeFileSync(pinFile, '{', { mode: 0o600 });
    const flow = await deploy();
    await until(() => flow.statusTexts().includes('certificate rejected'), 'the refusal shown');
    const lines = allLogText()
      .split('\n')
      .filter((line) => line.includes('certificate pin store cannot be read'));
    should(lines).have.length(1);
    should(lines[0]).containEql(pinFile);
    should(logins()).equal(0);
  });

  it('tells the device dialog what is wrong with the store, and that no certificate is trusted', async () => {
    writeFileSync(pinFile, '{', { mode: 0o600 });
    await deploy();
    const answer = await helper
      .request()
      .post('/conference-audio/trusted-certificate')
      .send({ id: 'device' });
    should(answer.body).containDeep({ ok: true, fingerprint: null, source: null, mismatch: null });
    should(String(answer.body.storeProblem)).startWith(`${pinFile} is not valid JSON`);
  });

  it('connects with a fingerprint entered in the device node, leaving the broken store as it is', async () => {
    const truncated = OTHER_PINS.slice(0, 40);
    writeFileSync(pinFile, truncated, { mode: 0o600 });
    const flow = await deploy(rig.simulator.fingerprint256);
    should((await flow.serves()).statusCode).equal(200);
    should(logins()).equal(1);
    should(readFileSync(pinFile, 'utf8')).equal(truncated);
    should(allLogText()).match(/The fingerprint entered in the device dialog is used/);
  });

  it('trusts on first use again once the user deletes the broken store, and keeps the pin', async () => {
    writeFileSync(pinFile, '{', { mode: 0o600 });
    const flow = await deploy();
    await flow.fails('TLS');
    rmSync(pinFile);
    should((await flow.serves()).statusCode).equal(200);
    should(JSON.parse(readFileSync(pinFile, 'utf8'))).eql({
      device: { address: `127.0.0.1:${rig.simulator.port}`, fingerprint: rig.simulator.fingerprint256 },
    });
  });

  it("keeps a pin in a store that holds other devices' pins, and leaves theirs alone", async () => {
    writeFileSync(pinFile, OTHER_PINS, { mode: 0o600 });
    const flow = await deploy();
    should((await flow.serves()).statusCode).equal(200);
    const pins = JSON.parse(readFileSync(pinFile, 'utf8')) as Record<string, unknown>;
    should(Object.keys(pins).sort()).eql(['device', 'other-1', 'other-2']);
    should(statSync(pinFile).mode & 0o777).equal(0o600);
  });
});
