/** The secrets harness itself: a check that cannot fail would make every reliability test worthless. */
import should from 'should';
import { DeviceClient } from '../../src/api';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { helper, nodeModules, requireFromRuntime, tab } from '../nodes/support';
import { assertNoSecrets, DISTINCTIVE_PASSWORD, type Secret, SecretsWatch } from './harness';

const SECRET: Secret = { name: 'the test password', value: DISTINCTIVE_PASSWORD };

/** Calls a Node method as a node's own code would (the test node type hides them behind spy types). */
function call(id: string, method: 'status' | 'send' | 'warn' | 'error' | 'receive', value: unknown): void {
  const node = helper.getNode(id) as unknown as Record<string, (value: unknown) => void>;
  node[method]?.call(node, value);
}

function failureOf(check: () => void): string {
  try {
    check();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the check to fail');
}

describe('reliability harness: assertNoSecrets', () => {
  it('names the secret and the place, and masks the secret in the excerpt', () => {
    const message = failureOf(() =>
      assertNoSecrets(
        [{ where: 'status of node n1', value: { text: `login as ${DISTINCTIVE_PASSWORD}` } }],
        [SECRET],
      ),
    );
    should(message).containEql('the test password appears in status of node n1');
    should(message).containEql('login as <the test password>');
    should(message).not.containEql(DISTINCTIVE_PASSWORD);
  });

  it('finds a secret inside a JSON string, URL-encoded, and in an error stack', () => {
    const quoted: Secret = { name: 'quoted', value: 'pa"ss word' };
    for (const value of [
      JSON.stringify({ password: quoted.value }),
      `https://device/?p=${encodeURIComponent(quoted.value)}`,
      new Error(`failed with ${quoted.value}`),
    ]) {
      should(failureOf(() => assertNoSecrets([{ where: 'x', value }], [quoted]))).containEql(
        'quoted appears in x',
      );
    }
  });

  it('passes when no secret appears anywhere', () => {
    assertNoSecrets([{ where: 'a message', value: { payload: 'zones', password: '[redacted]' } }], [SECRET]);
  });
});

describe('reliability harness: SecretsWatch on a running flow', () => {
  const flow = [
    tab,
    { id: 'out', type: 'helper', z: 'f1', name: 'sink', wires: [['other']] },
    { id: 'other', type: 'helper', z: 'f1' },
  ];
  let watch: SecretsWatch | undefined;

  beforeEach(() => {
    watch = SecretsWatch.start();
    watch.addSecret(SECRET.name, SECRET.value);
  });

  afterEach(async () => {
    await helper.unload();
    watch?.stop();
    watch = undefined;
  });

  const leaks: Array<[string, () => void, RegExp]> = [
    [
      'a status',
      () => call('out', 'status', { text: DISTINCTIVE_PASSWORD }),
      /status of node out \(helper "sink"\)/,
    ],
    [
      'a sent message',
      () => call('out', 'send', { payload: DISTINCTIVE_PASSWORD }),
      /message sent by node out/,
    ],
    [
      'a message reaching a helper node',
      () => call('other', 'receive', { payload: DISTINCTIVE_PASSWORD }),
      /message received by helper node other/,
    ],
    [
      'a warning',
      () => call('out', 'warn', `bad ${DISTINCTIVE_PASSWORD}`),
      /warning of node out|runtime log line/,
    ],
    [
      'an error',
      () => call('out', 'error', new Error(DISTINCTIVE_PASSWORD)),
      /error reported by node out|runtime log line/,
    ],
  ];
  for (const [what, leak, where] of leaks) {
    it(`fails naming the place for the password in ${what}`, async () => {
      await helper.load(nodeModules(), flow);
      leak();
      const message = failureOf(() => watch?.check());
      should(message).match(where);
      should(message).not.containEql(DISTINCTIVE_PASSWORD);
    });
  }

  it('fails for the password in the exported flow', async () => {
    await helper.load(nodeModules(), [
      tab,
      { id: 'out', type: 'helper', z: 'f1', name: DISTINCTIVE_PASSWORD },
    ]);
    should(failureOf(() => watch?.check())).containEql('the exported flow of deploy #1');
  });

  it('fails for the password in a runtime log line', async () => {
    await helper.load(nodeModules(), flow);
    requireFromRuntime<{ log: { warn(m: string): void } }>('@node-red/util').log.warn(
      `runtime says ${DISTINCTIVE_PASSWORD}`,
    );
    should(failureOf(() => watch?.check())).match(/runtime log line #\d+/);
  });

  it('keeps recording across a redeploy', async () => {
    await helper.load(nodeModules(), flow);
    call('out', 'status', { text: DISTINCTIVE_PASSWORD });
    await helper.unload();
    await helper.load(nodeModules(), flow);
    should(failureOf(() => watch?.check())).containEql('status of node out');
  });

  it('fails for a token the simulator issued, naming the simulator', async () => {
    const simulator: DeviceSimulator = await startSimulator({ port: 0 });
    try {
      const client = new DeviceClient({
        host: '127.0.0.1',
        port: simulator.port,
        account: 'general',
        password: '',
        tls: { mode: 'insecure' },
      });
      await client.request('GET', '/api/v1/audio');
      await client.close();
      watch?.watchSimulator(simulator);
      const token = simulator.issuedTokens[0] ?? '';
      await helper.load(nodeModules(), flow);
      call('out', 'status', { text: `token ${token}` });
      const message = failureOf(() => watch?.check());
      should(message).match(
        /token #1 of the simulator at https:\/\/127\.0\.0\.1:\d+ appears in status of node out/,
      );
      should(message).not.containEql(token);
    } finally {
      await simulator.close();
    }
  });

  it('passes a flow that shows no secret, and fails a check of nothing', async () => {
    should(failureOf(() => watch?.check())).containEql('saw nothing');
    await helper.load(nodeModules(), flow);
    call('out', 'status', { text: 'connected' });
    watch?.check();
  });
});
