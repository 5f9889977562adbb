/**
 * One login budget per device and account for the life of Node-RED: a device that accepts every login and
 * refuses every token gets at most LOGIN_BUDGET.logins logins in any LOGIN_BUDGET.windowMs, however many
 * redeploys or config nodes ask. And a login the device answers with anything but a 2xx is a refused
 * login: AUTH_FAILED with the device's words, and logins wait as after a wrong password.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api';

const LOGIN_PATH = DEVICE_PATHS.login;

import { forgetLoginBudgets, LOGIN_BUDGET } from '../../src/api/login-budget';
import type { DeviceSimulator } from '../../src/simulator';
import {
  catchModule,
  completeModule,
  counter,
  delay,
  deviceConfig,
  doneWatchers,
  helper,
  nodeModules,
  requestNodeDef,
  tab,
  until,
  useSimulator,
} from '../nodes/support';

const PASSWORD = 'Budg3t-Secret!';
const AUDIO = '/api/v1/audio';
const CONTROL = 'n-control';

/** Every login the device received, answered or refused, from its request log. */
function loginsReceived(sim: DeviceSimulator): number {
  return sim.requests.filter((request) => request.path === LOGIN_PATH).length;
}

/** Sends `msg` to every node of `ids` every `everyMs` for `forMs`. */
async function keepAsking(ids: readonly string[], forMs: number, everyMs = 50): Promise<void> {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    for (const id of ids) helper.getNode(id).receive({ payload: '' });
    await delay(everyMs);
  }
}

describe('reliability: one login budget per device and account', function () {
  this.timeout(30_000);
  let sim: DeviceSimulator;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });
  beforeEach(forgetLoginBudgets);

  /** The device takes every login and refuses every token it issued for the audio. */
  function refuseTokens(): void {
    sim.setFault({ kind: 'status', status: 401, path: AUDIO });
  }

  it(`sends at most ${LOGIN_BUDGET.logins} logins through redeploys of a device that refuses every token`, async () => {
    refuseTokens();
    const flow = [
      tab,
      deviceConfig(sim),
      requestNodeDef('n-a', 'out'),
      { id: 'out', type: 'helper', z: 'f1' },
      { id: 'n-catch', type: 'catch', z: 'f1', scope: ['n-a'], uncaught: false, wires: [['failed']] },
      { id: 'failed', type: 'helper', z: 'f1' },
    ];
    const credentials = { device: { password: PASSWORD } };
    await helper.load(nodeModules(catchModule), flow, credentials);
    const messages: string[] = [];
    // Each full deploy makes a new config node, a new client and a new session.
    for (let deploy = 0; deploy < 4; deploy += 1) {
      if (deploy > 0) await helper.setFlows(flow, 'full', credentials);
      const failed = counter(helper.getNode('failed'));
      await keepAsking(['n-a'], 1500);
      messages.push(...failed.messages.map((msg) => (msg.error as { message: string }).message));
    }
    should(sim.counters.logins).be.belowOrEqual(LOGIN_BUDGET.logins);
    should(sim.counters.logins).be.above(2);
    // The budget's words say what the device did with the logins.
    should(messages.at(-1)).match(
      /accepted 10 logins of account 'general' .* but refused the tokens it issued/,
    );
  });

  it(`sends at most ${LOGIN_BUDGET.logins} logins through four config nodes of one device and account`, async () => {
    refuseTokens();
    const ids = [1, 2, 3, 4];
    await helper.load(
      nodeModules(),
      [
        tab,
        ...ids.map((n) => deviceConfig(sim, { id: `device-${n}`, name: `room ${n}` })),
        ...ids.map((n) => requestNodeDef(`n-${n}`, 'out', { device: `device-${n}` })),
        { id: 'out', type: 'helper', z: 'f1' },
      ],
      Object.fromEntries(ids.map((n) => [`device-${n}`, { password: PASSWORD }])),
    );
    await keepAsking(
      ids.map((n) => `n-${n}`),
      4000,
    );
    should(sim.counters.logins).be.belowOrEqual(LOGIN_BUDGET.logins);
    should(sim.counters.logins).be.above(2);
  });

  describe('a login answered with 400', () => {
    /** A control node that sets the microphone mute; the device polls no audio. */
    async function loadControl(): Promise<ReturnType<typeof counter>> {
      await helper.load(
        nodeModules(completeModule, catchModule),
        [
          tab,
          deviceConfig(sim, { audioInterval: 0 }),
          {
            id: CONTROL,
            type: 'conference-audio-control',
            z: 'f1',
            device: 'device',
            action: 'microphoneMute',
            value: 'true',
            valueType: 'bool',
            wires: [['out']],
          },
          { id: 'out', type: 'helper', z: 'f1' },
          ...doneWatchers(CONTROL),
        ],
        { device: { password: PASSWORD } },
      );
      return counter(helper.getNode('failed'));
    }

    function refuseLogin(): void {
      sim.setFault({
        kind: 'status',
        status: 400,
        path: LOGIN_PATH,
        body: JSON.stringify({ errors: [{ message: 'Unsupported Attributes: account' }] }),
        contentType: 'application/json',
      });
    }

    it("reaches a control node as AUTH_FAILED with the device's words", async () => {
      refuseLogin();
      const failed = await loadControl();
      helper.getNode(CONTROL).receive({});
      await until(() => failed.count === 1, 'the caught error');
      const error = failed.messages[0]?.error as { code: string; message: string };
      should(error.code).equal('AUTH_FAILED');
      should(error.message).containEql('Unsupported Attributes: account');
      should(error.message).containEql('HTTP 400');
    });

    it('backs off as after a wrong password: one login, not one per input', async () => {
      refuseLogin();
      const failed = await loadControl();
      for (let input = 0; input < 10; input += 1) {
        helper.getNode(CONTROL).receive({});
        await delay(50);
      }
      await until(() => failed.count === 10, 'ten caught errors');
      // The first refusal holds logins back for a second, longer than the ten inputs take.
      should(loginsReceived(sim)).equal(1);
      should(failed.messages.map((msg) => (msg.error as { code: string }).code)).eql(
        Array(10).fill('AUTH_FAILED'),
      );
      const last = String((failed.messages[9]?.error as { message?: string } | undefined)?.message);
      should(last).match(/refused the login of account 'general' earlier/);
      should(last).containEql('Unsupported Attributes: account');
    });
  });
});
