import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import {
  catchModule,
  completeModule,
  counter,
  deviceConfig,
  doneWatchers,
  everythingShown,
  helper,
  nodeModules,
  receiveUntilDone,
  requestNodeDef,
  sentToken,
  tab,
  useSimulator,
} from './support';

const PASSWORD = 'R3quest-Secret!';

function requestNode(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return requestNodeDef('n-req', 'out', extra);
}

describe('device request node (conference-audio-request)', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  async function load(extra: Record<string, unknown> = {}) {
    await helper.load(
      nodeModules(completeModule, catchModule),
      [
        tab,
        deviceConfig(sim),
        requestNode(extra),
        { id: 'out', type: 'helper', z: 'f1' },
        ...doneWatchers('n-req'),
      ],
      { device: { password: PASSWORD } },
    );
    out = counter(helper.getNode('out'));
    ok = counter(helper.getNode('ok'));
    failed = counter(helper.getNode('failed'));
  }

  function send(msg: Record<string, unknown>): Promise<void> {
    return receiveUntilDone('n-req', msg, { ok, failed });
  }

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  it('sends the configured GET and outputs the parsed body, status and headers, keeping the message', async () => {
    await load();
    await send({ payload: 'ignored for GET', _msgid: 'r1', custom: true });
    const msg = out.messages[0];
    should(msg._msgid).equal('r1');
    should(msg.custom).be.true();
    should(msg.statusCode).equal(200);
    should(msg.payload).be.an.Object();
    should(msg.headers).have.property('content-type');
    should(sim.requests.filter((r) => r.path === '/api/v1/audio').map((r) => r.method)).eql(['GET']);
  });

  it('takes method, path and JSON body from the message', async () => {
    await load();
    await send({ method: 'patch', path: '/api/v1/audio', payload: { microphoneMute: true } });
    should(out.messages[0].statusCode).equal(200);
    should(sim.getState().audio).have.property('microphoneMute', true);
    const patch = sim.requests.find((r) => r.method === 'PATCH');
    should(patch?.path).equal('/api/v1/audio');
    should(patch?.headers['content-type']).match(/application\/json/);
  });

  for (const [name, msg] of [
    ['another host', { path: 'https://evil.example/api/v1/audio' }],
    ['a path outside /api/v1', { path: '/admin' }],
    ['a path with ..', { path: '/api/v1/../secret' }],
    ['the login endpoint (its answer holds the token)', { method: 'POST', path: '/api/v1/auth/login' }],
    ['an unknown method', { method: 'TRACE' }],
  ] as const) {
    it(`refuses ${name} with INVALID_INPUT without contacting the device`, async () => {
      await load();
      await send({ ...msg });
      should(failed.count).equal(1);
      should((failed.messages[0].error as { code: string }).code).equal('INVALID_INPUT');
      should(out.count).equal(0);
      should(sim.requests.filter((r) => !r.path.startsWith('/_simulator'))).have.length(0);
    });
  }

  for (const path of [
    '/api/v1/data?events=soundLocation',
    '/api/v1/events',
    '/api/v1/heartbeat',
    '/api/v1/Data/',
    '/api/v1/%65vents',
  ]) {
    it(`refuses the live stream ${path} at once, naming the device events node`, async () => {
      await load();
      await send({ path });
      const error = failed.messages[0]?.error as { code: string; message: string };
      should(error.code).equal('INVALID_INPUT');
      should(error.message).containEql('conference-audio-events');
      should(sim.requests.filter((r) => !r.path.startsWith('/_simulator'))).have.length(0);
    });
  }

  it('refuses a configured live stream path too, and serves the next message', async () => {
    await load({ path: '/api/v1/events' });
    await send({});
    should((failed.messages[0]?.error as { code?: string } | undefined)?.code).equal('INVALID_INPUT');
    await send({ path: '/api/v1/audio' });
    should(out.count).equal(1);
  });

  it('hands device errors to Catch with their code: FORBIDDEN, NOT_FOUND', async () => {
    await load();
    await send({ path: '/api/v1/security/policy' });
    await send({ path: '/api/v1/no/such/thing' });
    should(failed.messages.map((m) => (m.error as { code: string }).code)).eql(['FORBIDDEN', 'NOT_FOUND']);
    should(ok.count).equal(0);
  });

  it('never puts the password or the token into a message, a log line, a status or an error', async () => {
    await load();
    await send({});
    await send({ path: '/api/v1/no/such/thing' });
    const token = sentToken(sim);
    should(token.length).be.above(8);
    const everything = everythingShown('n-req', out.messages, failed.messages);
    should(everything).not.containEql(token);
    should(everything).not.containEql(PASSWORD);
  });
});
