/**
 * What an outside probe broke, each through a real Node-RED against the simulator: an answer nested
 * 10,000 levels deep, a password that a device error body quotes JSON-escaped, a second 401 right after a
 * fresh login, a device that refuses every token it issues, a path that undici refuses before sending,
 * a 200 KB response header, and a ";" segment parameter that walks up a level on some servers.
 */
import should from 'should';
import { DeviceFlow, requestNode } from './device-flows';
import { useReliabilityHarness } from './harness';

const AUDIO = '/api/v1/audio';
/** Quotes, a backslash, letters past ASCII and one past U+FFFF: every way JSON escapes a character. */
const AWKWARD_PASSWORD = 'Pa"ss\\wört-😀-x';

describe('reliability: what an outside probe broke', () => {
  describe('answers and paths', () => {
    const rig = useReliabilityHarness();

    it('refuses an answer nested 10,000 levels deep with BAD_RESPONSE, wired to two nodes and a Catch node, then serves the next', async () => {
      // Two wires make Node-RED clone the message, which recursed through the nesting and crashed it.
      const flow = await DeviceFlow.deploy(rig, requestNode({ wires: [['out', 'second']] }), {
        extraNodes: [{ id: 'second', type: 'helper', z: 'f1' }],
      });
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      rig.simulator.setFault({
        kind: 'status',
        status: 200,
        body: deep,
        contentType: 'application/json',
        path: AUDIO,
        times: 1,
      });
      should(await flow.fails('BAD_RESPONSE')).match(/nested deeper than 64 levels/);
      should((await flow.serves()).statusCode).equal(200);
    });

    it("refuses a path with a character above U+00FF as the input's own error, and the device stays connected", async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode());
      await flow.serves();
      should(await flow.fails('INVALID_INPUT', { path: '/api/v1/audio/Ω' })).match(/outside printable ASCII/);
      should(flow.statusTexts().at(-1)).not.match(/unreachable/i);
      should((await flow.serves()).statusCode).equal(200);
    });

    it('reports a 200 KB response header as BAD_RESPONSE, not UNREACHABLE', async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode());
      rig.simulator.setFault({ kind: 'huge-header', path: AUDIO, times: 1 });
      should(await flow.fails('BAD_RESPONSE')).match(/headers too large/);
      should((await flow.serves()).statusCode).equal(200);
    });

    for (const path of [
      '/api/v1/x/..;/auth/login',
      '/api/v1/x/..%3B/auth/login',
      '/api/v1/x/.../audio',
      '/api/v1/audio;jsessionid=1',
    ]) {
      it(`refuses ${path} before it reaches the device`, async () => {
        const flow = await DeviceFlow.deploy(rig, requestNode());
        await flow.fails('INVALID_INPUT', { path });
        should(rig.simulator.requests.map((request) => request.path)).not.containEql('/api/v1/auth/login/x');
        should(
          rig.simulator.requests.some(
            (request) => request.path.includes(';') || request.path.includes('...'),
          ),
        ).be.false();
      });
    }
  });

  describe('a password a device error body quotes', () => {
    const rig = useReliabilityHarness({ passwords: { general: AWKWARD_PASSWORD } });

    it('redacts the password JSON-escaped and \\u-escaped in a device error, also on the second 401 after a fresh login', async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode(), { password: AWKWARD_PASSWORD });
      const escapedJson = JSON.stringify(AWKWARD_PASSWORD).slice(1, -1);
      const unicodeEscaped = escapedJson.replace(
        /[^\x20-\x7e]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      // Plain text, so the escapes reach the message as they stand; a 401 twice, as after a fresh login.
      const body = `Unauthorized: password "${escapedJson}" (${unicodeEscaped}) is not accepted here`;
      rig.simulator.setFault({
        kind: 'status',
        status: 401,
        body,
        contentType: 'text/plain',
        path: AUDIO,
        times: 2,
      });
      const message = await flow.fails('AUTH_FAILED');
      should(message).match(/\[redacted\]/);
      should(message).not.containEql(escapedJson);
      should(message).not.containEql(unicodeEscaped);
      // The harness's watch then searches every message, status and log line for the password.
    });
  });

  describe('a device that refuses every token it issues', () => {
    const rig = useReliabilityHarness();

    it('stops logging in after three useless logins and reports AUTH_FAILED saying why', async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode());
      rig.simulator.setFault({ kind: 'status', status: 401, path: AUDIO });
      const messages: string[] = [];
      for (let input = 0; input < 10; input++) messages.push(await flow.fails('AUTH_FAILED'));
      // Two logins an input (its own and the retry after the 401) for three inputs, then none: 20 before.
      should(rig.simulator.counters.logins).equal(6);
      should(messages.at(-1)).match(/refused every fresh token/);
      rig.simulator.setFault(null);
    });
  });
});
