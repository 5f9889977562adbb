/**
 * The control node against what a device answers: a read-back of the wrong shape, a write it accepts but
 * does not show, profiles by name or id, and a resource it refused once.
 */
import should from 'should';
import { DEVICE_PATHS } from '../../src/api/protocol';
import type { DeviceSimulator } from '../../src/simulator';
import {
  allLogText,
  type counter,
  helper,
  loadWatched,
  receiveUntilDone,
  translate,
  until,
  useSimulator,
} from './support';

const PASSWORD = 'c0ntrol-Answers!';
const NODE = 'n-control';
const AUDIO = DEVICE_PATHS.audio;

interface DeviceNode {
  connection(): {
    state: { complete: boolean; get(group: string): { value: Record<string, unknown> } | undefined };
  };
}

describe('device control node: what the device answers', () => {
  let sim: DeviceSimulator;
  let out: ReturnType<typeof counter>;
  let ok: ReturnType<typeof counter>;
  let failed: ReturnType<typeof counter>;

  useSimulator({ passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  const state = () => (helper.getNode('device') as unknown as DeviceNode).connection().state;

  /** A control node with `extra` on its settings, once the state it keeps is read; no audio is polled. */
  async function load(extra: Record<string, unknown>): Promise<void> {
    ({ out, ok, failed } = await loadWatched(sim, PASSWORD, {
      id: NODE,
      type: 'conference-audio-control',
      ...extra,
    }));
    await until(() => state().complete, 'the state the node keeps');
    sim.resetRecords();
  }

  function send(msg: Record<string, unknown> = {}): Promise<void> {
    return receiveUntilDone(NODE, msg, { ok, failed });
  }

  const last = () => out.messages.at(-1) ?? {};
  const caughtError = () => (failed.messages.at(-1)?.error ?? {}) as { code?: string; message?: string };
  const fixed = (action: string, value: string, valueType: string) => ({ action, value, valueType });

  it('reports a read-back of the wrong shape as BAD_RESPONSE at the Catch node, keeping the audio it had', async () => {
    await load(fixed('volume', 'up', 'str'));
    const before = state().get('audio')?.value;
    sim.setFault({ kind: 'wrong-shape', body: [1, 2, 3], path: AUDIO });
    await send();
    should(out.count).equal(0);
    should(caughtError().code).equal('BAD_RESPONSE');
    should(state().get('audio')?.value).equal(before);
  });

  it('says msg.applied: true when the read-back shows the write', async () => {
    await load(fixed('microphoneMute', 'true', 'bool'));
    await send();
    should(last().applied).be.true();
  });

  it('says msg.applied: false for a mute read back unmuted, sends the message, and warns once per action', async () => {
    await load(fixed('microphoneMute', 'true', 'bool'));
    const warning = translate('conference-audio-control.errors.notApplied', { action: 'microphoneMute' });
    for (let input = 0; input < 2; input++) {
      // Answers the PATCH (200, as accepted) and the GET after it, which shows no mute.
      sim.setFault({ kind: 'wrong-shape', body: { microphoneMute: false }, path: AUDIO, times: 2 });
      await send();
    }
    should(out.count).equal(2);
    should(out.messages.map((msg) => msg.applied)).eql([false, false]);
    should((last().payload as Record<string, unknown>).microphoneMute).be.false();
    should(allLogText().split(warning).length - 1).equal(1);
  });

  it('says in msg.profile which profile a bare word picked, and by which field', async () => {
    sim.setProfiles([
      { profileId: 'p-1', name: 'Standard' },
      { profileId: 'p-2', name: 'p-1' },
    ]);
    await load({ action: 'msg' });
    await send({ action: 'profile', payload: 'p-1' });
    should(last().profile).eql({ id: 'p-2', name: 'p-1', matchedBy: 'name' });
    await send({ action: 'profile', payload: { id: 'p-1' } });
    should(last().profile).eql({ id: 'p-1', name: 'Standard', matchedBy: 'id' });
  });

  it('fails a profile action on a model 310 at once, without asking for the profiles the state saw refused', async () => {
    sim.setModel('310');
    await load(fixed('profile', 'Workshop', 'str'));
    await send();
    await send();
    should(failed.messages.map((msg) => (msg.error as { code?: string }).code)).eql([
      'UNSUPPORTED_MODEL',
      'UNSUPPORTED_MODEL',
    ]);
    should(sim.requests.filter((request) => request.path.startsWith(DEVICE_PATHS.profiles))).eql([]);
  });
});
