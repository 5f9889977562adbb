import type { NodeAPI } from 'node-red';
import should from 'should';
import { ADMIN_PERMISSION } from '../../src/nodes/conference-audio-device/admin';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { DISTINCTIVE_PASSWORD, useReliabilityHarness } from '../reliability/harness';
import { connectionsReaching } from '../reliability/rig';
import { envReference } from '../support/settings-table';
import {
  type AdminResponse,
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
const TRUSTED = '/conference-audio/trusted-certificate';
/** The routes that contact the device; the trusted certificate is the deployed node's to tell. */
const CONTACTS_DEVICE = new Set([TEST, CERTIFICATE, MAP]);

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

  it('test connection reports a timeout in seconds, the unit of the Timeout field', async () => {
    await loadDevice();
    sim.setFault({ kind: 'latency', ms: 60_000 });
    try {
      const res = await helper
        .request()
        .post(TEST)
        .send(dialog(sim, { password: PASSWORD, timeout: '0.5' }));
      const error = res.body.error as { code: string; message: string };
      should(error.code).equal('TIMEOUT');
      should(error.message).match(/within 0\.5 s\b/);
    } finally {
      sim.setFault(null);
    }
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

  it("test connection names the device's own vendor word, for the dialog to fill in", async () => {
    await loadDevice();
    const acme = await startSimulator({ port: 0, vendor: 'Acme', passwords: { general: PASSWORD } });
    try {
      const res = await helper
        .request()
        .post(TEST)
        .send(dialog(acme, { password: PASSWORD, vendor: 'Vendor', id: 'another-device' }));
      should(res.body).containDeep({ ok: true, vendor: { word: 'Acme', configured: 'Vendor' } });
    } finally {
      await acme.close();
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

  it('test connection refuses an environment variable reference as host with INVALID_INPUT, saying to enter the value or deploy', async () => {
    process.env.CA_TEST_DEVICE_HOST = '127.0.0.1';
    try {
      await loadDevice();
      const res = await helper
        .request()
        .post(TEST)
        .send(dialog(sim, { host: envReference('CA_TEST_DEVICE_HOST'), password: PASSWORD }));
      const error = res.body.error as { code: string; message: string };
      should(error.code).equal('INVALID_INPUT');
      should(error.message).match(/host is \$\{CA_TEST_DEVICE_HOST\}.*deployed/);
      should(error.message).not.containEql('127.0.0.1');
      should(sim.counters.logins).equal(0);
    } finally {
      delete process.env.CA_TEST_DEVICE_HOST;
    }
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

  it("zone map draws the map's own words in the editor's language, escaped, when the dialog sends them", async () => {
    await loadDevice();
    const words = { east: 'x Osten', north: 'y <Norden>', grid: 'Raster' };
    const res = await helper.request().post(MAP).send({ device: 'device', words });
    const svg = String(res.body.svg);
    should(svg).containEql('>x Osten</text>');
    should(svg).containEql('>y &lt;Norden&gt;</text>');
    should(svg).containEql('(Raster)</text>');
    // A word not sent stays English.
    should(svg).containEql('>0,0 (device)</text>');
  });

  it('zone map refuses an id that is not a deployed device', async () => {
    await loadDevice();
    const res = await helper.request().post(MAP).send({ device: 'nope' });
    should((res.body.error as { code: string }).code).equal('INVALID_CONFIG');
  });
});

/** The routes this package adds to the admin API, read from the admin app's router after a load. */
function registeredRoutes(): string[] {
  type Layer = { route?: { path?: unknown; methods?: Record<string, boolean> } };
  const app = (
    helper as unknown as { _httpAdmin: { _router?: { stack: Layer[] }; router?: { stack: Layer[] } } }
  )._httpAdmin;
  const stack = (app._router ?? app.router)?.stack ?? [];
  return stack
    .filter(
      (layer) =>
        typeof layer.route?.path === 'string' && String(layer.route.path).startsWith('/conference-audio'),
    )
    .flatMap((layer) =>
      Object.keys(layer.route?.methods ?? {}).map(
        (method) => `${method.toUpperCase()} ${String(layer.route?.path)}`,
      ),
    )
    .sort();
}

describe('editor endpoints of the device config node with adminAuth on', () => {
  const rig = useReliabilityHarness();
  const ROUTES = [TEST, CERTIFICATE, MAP, TRUSTED];
  const auth = requireFromRuntime<{ init(settings: unknown, storage: unknown): void }>(
    '@node-red/editor-api/lib/auth',
  );
  /** One user; tokens for every kind of scope that must not be enough, and two that are. */
  const adminAuth = {
    type: 'credentials',
    users: [{ username: 'admin', password: 'x', permissions: '*' }],
    tokens: [
      { token: 'all-token', user: 'admin', scope: ['*'] },
      { token: 'write-token', user: 'admin', scope: ['write'] },
      { token: 'own-token', user: 'admin', scope: [ADMIN_PERMISSION] },
      { token: 'reader-token', user: 'admin', scope: ['read'] },
      { token: 'own-reader-token', user: 'admin', scope: ['conference-audio-device.read'] },
      { token: 'flows-writer-token', user: 'admin', scope: ['flows.write', 'nodes.write'] },
      { token: 'no-scope-token', user: 'admin', scope: [] },
    ],
  };

  /** Loads the device with Node-RED's real auth (the helper gives nodes a permissive stub) and these settings. */
  async function loadWithAuth(settings: Record<string, unknown> = adminAuth) {
    const [device, ...rest] = nodeModules();
    await helper.load(
      [
        (RED: NodeAPI) => {
          auth.init({ adminAuth: settings }, { getSessions: async () => ({}), saveSessions: async () => {} });
          (RED as { auth: unknown }).auth = auth;
          device?.(RED);
        },
        ...rest,
      ],
      [tab, deviceConfig(rig.simulator)],
      rig.credentials(),
    );
  }

  /** Posts the dialog with the distinctive password; the answer counts as seen by the user. */
  async function post(path: string, authorization?: string): Promise<AdminResponse> {
    let call = helper.request().post(path);
    if (authorization !== undefined) call = call.set('Authorization', authorization);
    const res = await call.send(
      dialog(rig.simulator, { password: DISTINCTIVE_PASSWORD, device: 'device', id: 'device' }),
    );
    rig.watch.see(`the answer of ${path}`, res.text);
    return res;
  }

  after(() => {
    auth.init({}, {});
  });

  it('tests every route the package adds to the admin API', async () => {
    await loadWithAuth();
    should(registeredRoutes()).eql(ROUTES.map((route) => `POST ${route}`).sort());
  });

  const refusals: Array<[string, string | undefined]> = [
    ['an anonymous request', undefined],
    ['an unknown token', 'Bearer no-such-token'],
    ['a token with read permission only', 'Bearer reader-token'],
    ["a token with the node's read permission only", 'Bearer own-reader-token'],
    ['a token with write permission on flows and nodes only', 'Bearer flows-writer-token'],
    ['a token with no scope', 'Bearer no-scope-token'],
  ];
  for (const path of ROUTES) {
    for (const [who, authorization] of refusals) {
      it(`refuses ${who} to ${path} with 401, without contacting the device`, async () => {
        await loadWithAuth();
        const reaching = connectionsReaching(rig.simulator);
        try {
          const res = await post(path, authorization);
          should(res.status).equal(401);
          should(reaching.count).equal(0);
        } finally {
          reaching.stop();
        }
      });
    }

    it(`refuses an anonymous user whom adminAuth gives read permission by default to ${path}`, async () => {
      await loadWithAuth({ ...adminAuth, default: { permissions: 'read' } });
      const reaching = connectionsReaching(rig.simulator);
      try {
        const res = await post(path);
        should(res.status).equal(401);
        should(reaching.count).equal(0);
      } finally {
        reaching.stop();
      }
    });

    it(`accepts a token with only ${ADMIN_PERMISSION} on ${path}`, async () => {
      await loadWithAuth();
      const reaching = connectionsReaching(rig.simulator);
      try {
        const res = await post(path, 'Bearer own-token');
        should(res.status).equal(200);
        should(res.body.ok).be.true();
        if (CONTACTS_DEVICE.has(path)) should(reaching.count).be.above(0);
      } finally {
        reaching.stop();
      }
    });
  }

  for (const [who, token] of [
    ['every permission (*)', 'all-token'],
    ['write permission on everything', 'write-token'],
  ]) {
    it(`accepts a token with ${who}`, async () => {
      await loadWithAuth();
      const res = await post(TEST, `Bearer ${token}`);
      should(res.status).equal(200);
      should(res.body.ok).be.true();
    });
  }
});
