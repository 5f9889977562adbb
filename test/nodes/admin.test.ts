import type { NodeAPI } from 'node-red';
import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import {
  allLogText,
  deviceConfig,
  helper,
  nodeModules,
  requireFromRuntime,
  tab,
  useSimulator,
} from './support';

const PASSWORD = 'Adm1n-Test-Pw';
const TEST = '/conference-audio/test-connection';
const CERTIFICATE = '/conference-audio/certificate';
const MAP = '/conference-audio/zone-map';

/** The dialog's fields as the editor posts them. */
function dialog(sim: DeviceSimulator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { id, host, port, account, clientId, vendor, tls, fingerprint, ca, timeout } = deviceConfig(sim);
  return { id, host, port, account, clientId, vendor, tls, fingerprint, ca, timeout, ...extra };
}

describe('editor endpoints of the device config node', () => {
  let sim: DeviceSimulator;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  async function loadDevice(password = PASSWORD) {
    await helper.load(nodeModules(), [tab, deviceConfig(sim)], { device: { password } });
  }

  it('test connection answers with the zone count for the dialog values', async () => {
    await loadDevice();
    const res = await helper
      .request()
      .post(TEST)
      .send(dialog(sim, { password: PASSWORD }));
    should(res.status).equal(200);
    should(res.body).containEql({ ok: true, zonesSupported: true, count: 3, source: 'zones' });
    should(res.text).not.containEql(PASSWORD);
  });

  it('test connection answers AUTH_FAILED for a wrong password, echoing neither password nor token', async () => {
    await loadDevice();
    const wrong = 'Wr0ng-Password-123';
    const res = await helper
      .request()
      .post(TEST)
      .send(dialog(sim, { password: wrong }));
    should(res.body.ok).be.false();
    should((res.body.error as { code: string }).code).equal('AUTH_FAILED');
    should(res.text).not.containEql(wrong);
    should(allLogText()).not.containEql(wrong);
  });

  it('test connection uses the stored password when the field is unchanged (__PWRD__)', async () => {
    await loadDevice();
    const res = await helper
      .request()
      .post(TEST)
      .send(dialog(sim, { password: '__PWRD__' }));
    should(res.body).containEql({ ok: true, count: 3 });
    should(res.text).not.containEql(PASSWORD);
  });

  it('never sends the stored password to an address other than the saved one', async () => {
    await loadDevice();
    const other = await startSimulator({ port: 0, passwords: { general: PASSWORD } });
    try {
      const res = await helper
        .request()
        .post(TEST)
        .send(dialog(sim, { password: '__PWRD__', port: Number(new URL(other.url).port) }));
      should((res.body.error as { code: string }).code).equal('INVALID_INPUT');
      should(other.counters.logins + other.counters.failedLogins).equal(0);
    } finally {
      await other.close();
    }
  });

  it('test connection reports a model without zones as connected without zone support', async () => {
    sim.setModel('310');
    await loadDevice();
    const res = await helper
      .request()
      .post(TEST)
      .send(dialog(sim, { password: PASSWORD }));
    should(res.body).containEql({ ok: true, zonesSupported: false });
  });

  it('test connection refuses an invalid host with INVALID_CONFIG before any request', async () => {
    await loadDevice();
    const res = await helper
      .request()
      .post(TEST)
      .send(dialog(sim, { host: 'not a host/', password: '' }));
    should((res.body.error as { code: string }).code).equal('INVALID_CONFIG');
  });

  it('read certificate answers the fingerprint the device presents', async () => {
    await loadDevice();
    const res = await helper
      .request()
      .post(CERTIFICATE)
      .send({ host: '127.0.0.1', port: new URL(sim.url).port });
    should(res.body.ok).be.true();
    should(res.body.fingerprint256).equal(sim.fingerprint256);
    should(sim.counters.logins).equal(0);
  });

  it('zone map answers an SVG of the deployed device zones and their count', async () => {
    await loadDevice();
    const res = await helper.request().post(MAP).send({ device: 'device' });
    should(res.body.ok).be.true();
    should(res.body.count).equal(3);
    should(String(res.body.svg)).startWith('<svg');
  });

  it('zone map refuses an id that is not a deployed device', async () => {
    await loadDevice();
    const res = await helper.request().post(MAP).send({ device: 'nope' });
    should((res.body.error as { code: string }).code).equal('INVALID_CONFIG');
  });

  describe('with adminAuth on', () => {
    const auth = requireFromRuntime<{ init(settings: unknown, storage: unknown): void }>(
      '@node-red/editor-api/lib/auth',
    );
    const adminAuth = {
      type: 'credentials',
      users: [{ username: 'admin', password: 'x', permissions: '*' }],
      tokens: [
        { token: 'writer-token', user: 'admin', scope: ['*'] },
        { token: 'reader-token', user: 'admin', scope: ['read'] },
      ],
    };
    // The helper gives nodes a permissive stub of RED.auth; use Node-RED's real one with adminAuth settings.
    const withRealAuth = (RED: NodeAPI) => {
      auth.init({ adminAuth }, { getSessions: async () => ({}), saveSessions: async () => {} });
      (RED as { auth: unknown }).auth = auth;
    };

    async function loadWithAuth() {
      const [device, ...rest] = nodeModules();
      await helper.load(
        [
          (RED: NodeAPI) => {
            withRealAuth(RED);
            device(RED);
          },
          ...rest,
        ],
        [tab, deviceConfig(sim)],
        { device: { password: PASSWORD } },
      );
    }

    after(() => {
      auth.init({}, {});
    });

    for (const path of [TEST, CERTIFICATE, MAP]) {
      it(`refuses an anonymous request to ${path}`, async () => {
        await loadWithAuth();
        const res = await helper
          .request()
          .post(path)
          .send(dialog(sim, { password: PASSWORD, device: 'device' }));
        should(res.status).equal(401);
        should(sim.requests).have.length(0);
      });
    }

    it('refuses a token with read permission only', async () => {
      await loadWithAuth();
      const res = await helper
        .request()
        .post(TEST)
        .set('Authorization', 'Bearer reader-token')
        .send(dialog(sim, { password: PASSWORD }));
      should(res.status).equal(401);
    });

    it('accepts a token with write permission', async () => {
      await loadWithAuth();
      const res = await helper
        .request()
        .post(TEST)
        .set('Authorization', 'Bearer writer-token')
        .send(dialog(sim, { password: PASSWORD }));
      should(res.status).equal(200);
      should(res.body.ok).be.true();
    });
  });
});
