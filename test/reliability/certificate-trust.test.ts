/**
 * Trust on first use that lasts: with TLS `pin` and no fingerprint, the certificate a device first shows
 * is kept for the config node in an owner-only file of the user directory (never in a context store, which
 * a flow can write) and pinned from then on. A device that later shows another certificate is refused, naming both fingerprints, across a
 * full redeploy and a restart of Node-RED, until the user accepts the new certificate in the dialog.
 * A real Node-RED process with the built package: `npm test` builds before it runs the tests.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import should from 'should';
import { PIN_FILE_NAME } from '../../src/device/pin-storage';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { createCertificate } from '../../src/simulator/certificate';
import { deployFlows } from '../e2e/node-red';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';

const projectRoot = path.resolve(__dirname, '..', '..');

interface Trust {
  ok: boolean;
  fingerprint: string | null;
  source: string | null;
  mismatch: { expected: string; seen: string } | null;
}

describe('reliability: a certificate trusted on first use is kept', function () {
  this.timeout(90_000);
  let userDir: string;
  let nodeRed: NodeRedProcess | undefined;
  let simulator: DeviceSimulator | undefined;

  before(() => {
    if (!existsSync(path.join(projectRoot, 'dist', 'nodes', 'conference-audio-device', 'runtime.js'))) {
      throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    }
  });

  beforeEach(() => {
    userDir = mkdtempSync(path.join(tmpdir(), 'ca-trust-'));
    writeFileSync(path.join(userDir, 'flows.json'), '[]\n');
  });

  afterEach(async () => {
    await nodeRed?.stop();
    nodeRed = undefined;
    await simulator?.close();
    simulator = undefined;
    if (userDir !== undefined) rmSync(userDir, { recursive: true, force: true });
  });

  /** Two certificates for the device's address; the device shows the first. */
  async function deviceWithTwoCertificates() {
    const [first, second] = await Promise.all([
      createCertificate('127.0.0.1'),
      createCertificate('127.0.0.1'),
    ]);
    simulator = await startSimulator({ port: 0, tls: first });
    return { port: simulator.port, firstPrint: simulator.fingerprint256, second };
  }

  /** The device at `port` shows `certificate` from now on; returns its fingerprint. */
  async function showCertificate(port: number, certificate: Awaited<ReturnType<typeof createCertificate>>) {
    await simulator?.close();
    simulator = await startSimulator({ port, tls: certificate });
    return simulator.fingerprint256;
  }

  /** With a file context store, as settings.js may have one; `{}` leaves Node-RED's memory context alone. */
  function start(
    contextStorage: Record<string, unknown> | undefined = {
      contextStorage: { default: { module: 'memory' }, file: { module: 'localfilesystem' } },
    },
  ): Promise<NodeRedProcess> {
    return launchNodeRed({
      redJs: require.resolve('node-red/red.js'),
      userDir,
      settings: { nodesDir: [projectRoot], ...contextStorage },
    });
  }

  function flows(port: number, fingerprint = ''): unknown[] {
    return [
      { id: 'f1', type: 'tab', label: 'trust' },
      {
        id: 'device',
        type: 'conference-audio-device',
        host: '127.0.0.1',
        port,
        account: 'general',
        tls: 'pin',
        fingerprint,
        credentials: { password: '' },
      },
      // Reads the zones at every start, so each deploy connects to the device.
      {
        id: 'reader',
        type: 'conference-audio-zones',
        z: 'f1',
        device: 'device',
        output: 'all',
        interval: 0,
        onStart: true,
        topic: 'room',
        wires: [[]],
      },
      // The reader's last error, for the test to read: GET /last-error.
      { id: 'on-error', type: 'catch', z: 'f1', scope: ['reader'], uncaught: false, wires: [['keep-error']] },
      {
        id: 'keep-error',
        type: 'function',
        z: 'f1',
        func: "flow.set('lastError', { code: msg.error.code, message: msg.error.message }); return null;",
        outputs: 1,
        wires: [[]],
      },
      {
        id: 'ask-error',
        type: 'http in',
        z: 'f1',
        url: '/last-error',
        method: 'get',
        wires: [['answer-error']],
      },
      {
        id: 'answer-error',
        type: 'function',
        z: 'f1',
        func: "msg.payload = flow.get('lastError') || null; return msg;",
        outputs: 1,
        wires: [['respond-error']],
      },
      { id: 'respond-error', type: 'http response', z: 'f1', statusCode: '', headers: {}, wires: [] },
    ];
  }

  function lastError(running: NodeRedProcess): Promise<{ code: string; message: string }> {
    return probeUntil('an error from the zones reader', async () => {
      const answer = await running.request('/last-error');
      return answer.ok
        ? (((await answer.json()) as { code: string; message: string } | null) ?? undefined)
        : undefined;
    });
  }

  async function trust(running: NodeRedProcess): Promise<Trust> {
    const answer = await running.request('/conference-audio/trusted-certificate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'device' }),
    });
    return (await answer.json()) as Trust;
  }

  function trustWhere(
    running: NodeRedProcess,
    what: string,
    holds: (seen: Trust) => boolean,
  ): Promise<Trust> {
    return probeUntil(what, async () => {
      const seen = await trust(running);
      return seen.ok && holds(seen) ? seen : undefined;
    });
  }

  it('refuses a new certificate after a full redeploy and after a restart, until the user accepts it', async () => {
    const { port, firstPrint, second } = await deviceWithTwoCertificates();
    nodeRed = await start();

    await deployFlows(nodeRed, flows(port));
    const learned = await trustWhere(
      nodeRed,
      'the first certificate trusted',
      (seen) => seen.fingerprint !== null,
    );
    should(learned).containDeep({ fingerprint: firstPrint, source: 'first use', mismatch: null });

    // Another certificate at the same address, as after a swap of devices or an attacker in between.
    const secondPrint = await showCertificate(port, second);
    should(secondPrint).not.equal(firstPrint);

    await deployFlows(nodeRed, flows(port));
    const refused = await trustWhere(
      nodeRed,
      'the new certificate refused',
      (seen) => seen.mismatch !== null,
    );
    should(refused).containDeep({
      fingerprint: firstPrint,
      mismatch: { expected: firstPrint, seen: secondPrint },
    });
    should(nodeRed.output()).containEql(secondPrint);
    should(simulator?.counters.logins).equal(0);

    await nodeRed.stop();
    nodeRed = await start();
    const afterRestart = await trustWhere(
      nodeRed,
      'the new certificate refused after a restart',
      (seen) => seen.mismatch !== null,
    );
    should(afterRestart.mismatch).eql({ expected: firstPrint, seen: secondPrint });
    should(simulator?.counters.logins).equal(0);

    // The user presses "Accept the new certificate": the dialog puts its fingerprint in the field.
    await deployFlows(nodeRed, flows(port, secondPrint));
    await probeUntil('a login with the accepted certificate', () =>
      simulator?.counters.logins ? true : undefined,
    );
    const accepted = await trust(nodeRed);
    should(accepted).containDeep({ fingerprint: secondPrint, source: 'configured', mismatch: null });

    // Clearing the field afterwards keeps the accepted certificate, not the old one.
    await deployFlows(nodeRed, flows(port));
    const kept = await trustWhere(
      nodeRed,
      'the accepted certificate kept',
      (seen) => seen.fingerprint !== null,
    );
    should(kept).containDeep({ fingerprint: secondPrint, source: 'first use', mismatch: null });
  });

  it('without a persistent context store, refuses a new certificate after a restart, naming both, with no login', async () => {
    const { port, firstPrint, second } = await deviceWithTwoCertificates();
    nodeRed = await start({});
    await deployFlows(nodeRed, flows(port));
    await trustWhere(nodeRed, 'the first certificate trusted', (seen) => seen.fingerprint === firstPrint);
    await nodeRed.stop();

    const secondPrint = await showCertificate(port, second);
    nodeRed = await start({});
    const error = await lastError(nodeRed);
    should(error.code).equal('TLS');
    should(error.message).containEql(firstPrint).and.containEql(secondPrint);
    should(simulator?.counters.logins).equal(0);
  });

  it('keeps a pin learned without a persistent context store in a file of the user directory that only its owner reads', async () => {
    simulator = await startSimulator({ port: 0, tls: await createCertificate('127.0.0.1') });
    nodeRed = await start({});
    await deployFlows(nodeRed, flows(simulator.port));
    await trustWhere(nodeRed, 'a certificate trusted', (seen) => seen.fingerprint !== null);
    const pinFile = path.join(userDir, PIN_FILE_NAME);
    should(statSync(pinFile).mode & 0o777).equal(0o600);
    should(readFileSync(pinFile, 'utf8')).containEql(simulator.fingerprint256);
  });

  it('ignores a pin a flow put in the persistent context store', async () => {
    simulator = await startSimulator({ port: 0, tls: await createCertificate('127.0.0.1') });
    // What `global.set(key, pin, 'file')` in a Function node leaves in the file context store.
    const planted = { address: `127.0.0.1:${simulator.port}`, fingerprint: `${'AB:'.repeat(31)}AB` };
    mkdirSync(path.join(userDir, 'context', 'global'), { recursive: true });
    writeFileSync(
      path.join(userDir, 'context', 'global', 'global.json'),
      JSON.stringify({ conferenceAudioTrustedCertificate_device: planted }),
    );
    nodeRed = await start();
    await deployFlows(nodeRed, flows(simulator.port));
    const trusted = await trustWhere(nodeRed, 'a certificate trusted', (seen) => seen.fingerprint !== null);
    should(trusted).containDeep({
      fingerprint: simulator.fingerprint256,
      source: 'first use',
      mismatch: null,
    });
    should(readFileSync(path.join(userDir, PIN_FILE_NAME), 'utf8')).containEql(simulator.fingerprint256);
  });
});
