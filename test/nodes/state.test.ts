import should from 'should';
import { DeviceClient } from '../../src/api';
import { CHANGE_EVENTS, DEVICE_PATHS, STREAM_PATHS as DEVICE_STREAM_PATHS } from '../../src/api/protocol';
import { GROUP_RESOURCES, RESYNC_GROUPS, STATE_GROUPS, type StateGroupName } from '../../src/control';
import { DEFAULT_RESYNC_SECONDS, resyncIntervalMs } from '../../src/device/state-settings';
import { readOutputMode, readStateGroups } from '../../src/nodes/conference-audio-state/definition';
import type { DeviceSimulator } from '../../src/simulator';
import {
  allLogText,
  catchModule,
  counter,
  deviceConfig,
  doneWatchers,
  helper,
  nodeModules,
  receiveUntilDone,
  statusWhere,
  type TestNode,
  tab,
  translate,
  until,
  useSimulator,
} from './support';

const outNode = { id: 'out', type: 'helper', z: 'f1' };
const WORKSHOP = 'b83e5d20-9c41-4f6a-8d17-2e6f0c9a4b72';

function stateNodeDef(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { type: 'conference-audio-state', z: 'f1', device: 'device', output: 'changes' };
  return { id, ...base, groups: [...STATE_GROUPS], topic: '', wires: [['out']], ...extra };
}

type Message = Record<string, unknown>;

/** A message's payload (or any object property of it), for a look inside. */
function objectOf(msg: Message | undefined, property = 'payload'): Record<string, Message> {
  return (msg?.[property] ?? {}) as Record<string, Message>;
}

/** Waits for the out node's messages to reach `count` and returns them from `from` on. */
async function messagesUpTo(
  out: ReturnType<typeof counter>,
  count: number,
  what: string,
): Promise<Message[]> {
  await until(() => out.count >= count, what);
  return out.messages.slice(0, count);
}

describe('device state node (conference-audio-state)', () => {
  let sim: DeviceSimulator;
  useSimulator({ talker: 'off' }, (started) => {
    sim = started;
  });

  async function load(nodes: Record<string, unknown>[], device: Record<string, unknown> = {}, password = '') {
    await helper.load(nodeModules(catchModule), [tab, deviceConfig(sim, device), ...nodes, outNode], {
      device: { password },
    });
    return counter(helper.getNode('out'));
  }

  /** A client other than the flow's, as the device's own app or another controller would be. */
  async function otherClientPatch(path: string, body: unknown): Promise<void> {
    const client = new DeviceClient({
      host: '127.0.0.1',
      port: Number(new URL(sim.url).port),
      account: 'general',
      password: '',
      clientId: 'another-controller',
      vendor: sim.vendor,
      tls: { mode: 'insecure' },
      timeoutMs: 5000,
    });
    try {
      await client.request('PATCH', path, body);
    } finally {
      await client.close();
    }
  }

  describe('the first complete reading', () => {
    it('is sent once, one message per group, with previous null and every field changed', async () => {
      const out = await load([stateNodeDef('n-state')]);
      const first = await messagesUpTo(out, STATE_GROUPS.length, 'one message per group');
      should(first.map((msg) => msg.topic)).eql(STATE_GROUPS.map((group) => `room/${group}`));
      for (const msg of first) {
        should(msg.previous).be.null();
        should(msg.changed).eql(Object.keys(msg.payload as object));
      }
      should(objectOf(first[0]).speakerVolume).equal(14);
      // The next message is the change, not the first reading again.
      sim.setUsb('disconnected');
      const [next] = (await messagesUpTo(out, STATE_GROUPS.length + 1, 'the USB change')).slice(-1);
      should(next?.topic).equal('room/status');
      should(next?.changed).eql(['usb']);
    });

    it('is sent once as one message keyed by group in all mode', async () => {
      const out = await load([stateNodeDef('n-state', { output: 'all', topic: 'hall' })]);
      const [first] = await messagesUpTo(out, 1, 'the state');
      should(first?.topic).equal('hall/state');
      should(Object.keys(first?.payload as object)).eql([...STATE_GROUPS]);
      should(first?.previous).be.null();
      should(first?.changed).eql([...STATE_GROUPS]);
      sim.setLed('console', { colour: 'red', state: 'solid' });
      const [, next] = await messagesUpTo(out, 2, 'the LED change');
      should(next?.changed).eql(['status']);
      should(next?.previous).eql(first?.payload);
      should(objectOf(objectOf(next).status, 'leds').console).eql({ colour: 'red', state: 'solid' });
    });
  });

  it('sends groups that change in the same moment as one message in all mode', async () => {
    const out = await load([stateNodeDef('n-state', { output: 'all' })]);
    const [first] = await messagesUpTo(out, 1, 'the state');
    // Unplugging a bar changes the hardware's deviceStatus and the status's deviceComponents at once.
    sim.setBarUnplugged(true);
    const [, next] = await messagesUpTo(out, 2, 'the unplugged bar');
    should(next?.changed).eql(['hardware', 'status']);
    should(next?.previous).eql(first?.payload);
    sim.setUsb('disconnected');
    const [, , after] = await messagesUpTo(out, 3, 'the USB change');
    should(after?.changed).eql(['status']);
    should(after?.previous).eql(next?.payload);
  });

  describe('a change of each group gives one message with the group before and the fields that changed', () => {
    const cases: Array<{ group: StateGroupName; how: string; change: () => unknown; changed: string[] }> = [
      {
        group: 'status',
        how: 'an LED',
        change: () => sim.setLed('networkA', { colour: 'yellow', state: 'pulsing' }),
        changed: ['leds'],
      },
      { group: 'status', how: 'USB', change: () => sim.setUsb('disconnected'), changed: ['usb'] },
      {
        group: 'status',
        how: 'a bar unplugged',
        change: () => sim.setBarUnplugged(true),
        changed: ['deviceComponents'],
      },
      {
        group: 'hardware',
        how: 'a firmware update',
        change: () => sim.setFirmwareVersion('1.9.300000-0'),
        changed: ['firmwareVersion'],
      },
      {
        group: 'cameraSwitcher',
        how: 'the switcher turned off',
        change: () => sim.setCameraSwitcher({ enabled: false }),
        changed: ['enabled'],
      },
      {
        group: 'profiles',
        how: 'another profile made active',
        change: () => sim.activateProfile(WORKSHOP),
        changed: ['profiles'],
      },
      {
        group: 'network',
        how: 'a new gateway',
        change: () => sim.setNetwork({ gateway: '10.9.9.1' }),
        changed: ['networkConfiguration'],
      },
      {
        group: 'audio',
        how: "another client's PATCH, seen by the poll",
        change: () => otherClientPatch(DEVICE_PATHS.audio, { speakerTrebleLevel: 42 }),
        changed: ['speakerTrebleLevel'],
      },
      {
        group: 'switching',
        how: 'a layout PATCH',
        change: () =>
          otherClientPatch(DEVICE_PATHS.layout, {
            cameraSwitcherDefaults: {
              defaultCameraInputPort: 'USB2',
              zonesTriggerWaitTime: 1500,
              switchToDefaultWaitTime: 5000,
            },
          }),
        changed: ['cameraSwitcherDefaults'],
      },
    ];
    for (const { group, how, change, changed } of cases) {
      it(`${group}: ${how}`, async () => {
        const out = await load([stateNodeDef('n-state', { groups: [group] })]);
        const [first] = await messagesUpTo(out, 1, 'the first reading');
        await change();
        const [, next] = await messagesUpTo(out, 2, `the ${group} change`);
        should(next?.topic).equal(`room/${group}`);
        should(next?.previous).eql(first?.payload);
        should(next?.changed).eql(changed);
        should(next?.payload).not.eql(first?.payload);
      });
    }
  });

  it('sends only the chosen groups', async () => {
    const out = await load([stateNodeDef('n-state', { groups: ['network', 'status'] })]);
    const first = await messagesUpTo(out, 2, 'the two groups');
    should(first.map((msg) => msg.topic)).eql(['room/status', 'room/network']);
    // A change of a group not chosen comes first on the stream; the next message is still the chosen one.
    sim.setCameraSwitcher({ enabled: false });
    sim.setUsb('disconnected');
    const [, , next] = await messagesUpTo(out, 3, 'the USB change');
    should(next?.topic).equal('room/status');
  });

  describe('an input message', () => {
    it('re-sends the current state with previous equal to it, nothing changed, its own properties kept, done once', async () => {
      const out = await load([
        stateNodeDef('n-state', { groups: ['audio', 'status'] }),
        ...doneWatchers('n-state'),
      ]);
      const done = { ok: counter(helper.getNode('ok')), failed: counter(helper.getNode('failed')) };
      const first = await messagesUpTo(out, 2, 'the first reading');
      await receiveUntilDone('n-state', { payload: 'again', room: 'hall' }, done);
      const again = await messagesUpTo(out, 4, 'the state again');
      for (const [index, msg] of again.slice(2).entries()) {
        should(msg.topic).equal(first[index]?.topic);
        should(msg.payload).eql(first[index]?.payload);
        should(msg.previous).eql(msg.payload);
        should(msg.changed).eql([]);
        should(msg.room).equal('hall');
      }
      should(done.ok.count).equal(1);
      should(done.failed.count).equal(0);
    });

    it('waits for the first complete reading when it comes before it', async () => {
      const out = await load([stateNodeDef('n-state', { output: 'all' }), ...doneWatchers('n-state')]);
      const done = { ok: counter(helper.getNode('ok')), failed: counter(helper.getNode('failed')) };
      helper.getNode('n-state').receive({ payload: 'early' });
      const [first, again] = await messagesUpTo(out, 2, 'the first reading and the answer');
      should(again?.payload).eql(first?.payload);
      should(again?.changed).eql([]);
      await until(() => done.ok.count === 1, 'the input done');
    });
  });

  it('ends an input waiting for the first reading with the read error that holds it back', async () => {
    sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.status });
    await load([stateNodeDef('n-state'), ...doneWatchers('n-state')]);
    const done = { ok: counter(helper.getNode('ok')), failed: counter(helper.getNode('failed')) };
    helper.getNode('n-state').receive({ payload: 'early' });
    await until(() => done.failed.messages.some((msg) => msg.payload === 'early'), 'the input failed');
    const failed = done.failed.messages.find((msg) => msg.payload === 'early');
    should(objectOf(failed, 'error').code).equal('HTTP_ERROR');
    should(done.ok.count).equal(0);
  });

  it('50 state nodes on one device make no more requests than one', async () => {
    const paths = RESYNC_GROUPS.map((group) => GROUP_RESOURCES[group]);
    const countsOf = () => {
      const stats = sim.stats();
      return {
        streams: stats.streamConnections,
        ...Object.fromEntries(paths.map((p) => [p, stats.requestsByPath[p] ?? 0])),
      };
    };
    const difference = (before: Record<string, number>, after: Record<string, number>) =>
      Object.fromEntries(Object.keys(after).map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)]));

    let before = countsOf();
    let out = await load([stateNodeDef('n-state', { output: 'all' })]);
    await messagesUpTo(out, 1, 'the first reading of one node');
    const one = difference(before, countsOf());
    await helper.unload();

    before = countsOf();
    const many = Array.from({ length: 50 }, (_, index) =>
      stateNodeDef(`n-state-${index}`, { output: 'all' }),
    );
    out = await load(many);
    await messagesUpTo(out, 50, 'the first reading of 50 nodes');
    const fifty = difference(before, countsOf());
    should(fifty).eql(one);
  });

  it('follows a model 310 without its layout and profiles, and never asks for them again', async () => {
    sim.setModel('310');
    const out = await load([stateNodeDef('n-state')]);
    const present = STATE_GROUPS.filter((group) => group !== 'switching' && group !== 'profiles');
    const first = await messagesUpTo(out, present.length, 'every group the model has');
    should(first.map((msg) => msg.topic)).eql(present.map((group) => `room/${group}`));
    const asked = () => {
      const byPath = sim.stats().requestsByPath;
      return [byPath[DEVICE_PATHS.layout], byPath[DEVICE_PATHS.profiles]];
    };
    should(asked()).eql([1, 1]);
    // A layout event makes the state read the layout and the profiles again, when the device has them.
    sim.emitChange(CHANGE_EVENTS.layout, {});
    sim.setUsb('disconnected');
    const [next] = (await messagesUpTo(out, present.length + 1, 'the USB change')).slice(-1);
    should(next?.topic).equal('room/status');
    should(asked()).eql([1, 1]);
  });

  it("never shows the admin's enrollment code in a message, a log line or a status", async () => {
    const code = sim.enrollmentCode;
    const out = await load([stateNodeDef('n-state', { output: 'all' })], { account: 'admin' }, code);
    const [first] = await messagesUpTo(out, 1, 'the state');
    should(objectOf(first).hardware?.model).be.a.String();
    sim.setFirmwareVersion('1.9.300000-0');
    const [, next] = await messagesUpTo(out, 2, 'the hardware change');
    should(next?.changed).eql(['hardware']);
    const statuses = (helper.getNode('n-state').status.getCalls?.() ?? []).map((call) =>
      JSON.stringify(call.args),
    );
    for (const text of [JSON.stringify(out.messages), allLogText(), ...statuses]) {
      should(text).not.containEql(code);
      should(text).not.containEql('enrollmentCode');
    }
  });

  describe('status', () => {
    it('summarises the microphone, the volume and the active profile', async () => {
      await load([stateNodeDef('n-state')]);
      const node: TestNode = helper.getNode('n-state');
      await statusWhere(node, (status) => status.text === 'mic on · vol 14 · Standard');
      sim.setAudio({ microphoneMute: true });
      await statusWhere(node, (status) => status.text === 'mic muted · vol 14 · Standard');
    });

    it('shows the fault of a failed read until it reads again, and reports it once per code, not at every retry', async () => {
      const out = await load([stateNodeDef('n-state', { groups: ['status'] }), ...doneWatchers('n-state')]);
      const caught = counter(helper.getNode('failed'));
      await messagesUpTo(out, 1, 'the first reading');
      const asked = () => sim.stats().requestsByPath[DEVICE_PATHS.audio] ?? 0;
      const start = asked();
      const faultShown = statusWhere(helper.getNode('n-state'), (status) => status.fill === 'red');
      sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.audio });
      await until(() => asked() >= start + 2, 'two failed audio polls', 10_000);
      await faultShown;
      should(caught.count).equal(1);
      should(objectOf(caught.messages[0], 'error').code).equal('HTTP_ERROR');
      // Read again, the audio ends the fault: the summary is back, although nothing changed.
      const summaryShown = statusWhere(
        helper.getNode('n-state'),
        (status) => status.text === 'mic on · vol 14 · Standard',
      );
      sim.setFault(null);
      await summaryShown;
    });
  });

  describe('the resync interval from settings.js (conferenceAudioDeviceStateResync)', () => {
    const layoutReads = () => sim.stats().requestsByPath[DEVICE_PATHS.layout] ?? 0;

    afterEach(() => {
      helper.settings({});
      sim.setFault(null);
    });

    it('reads the state again at the interval it gives', async () => {
      helper.settings({ conferenceAudioDeviceStateResync: 1 });
      // While the change stream streams without a break the resync is stretched: here it cannot open.
      sim.setFault({ kind: 'status', status: 503, path: DEVICE_STREAM_PATHS.changes });
      const before = layoutReads();
      const out = await load([stateNodeDef('n-state', { groups: ['switching'] })]);
      await messagesUpTo(out, 1, 'the first reading');
      // Once a minute by default: three reads within the wait come only from the one-second interval.
      await until(
        () => layoutReads() - before >= 3,
        () => `three layout reads (${layoutReads() - before} so far)`,
        10_000,
      );
    });

    it('warns about an interval it cannot use, naming the default it keeps, and still follows the state', async () => {
      helper.settings({ conferenceAudioDeviceStateResync: 'often' });
      const out = await load([stateNodeDef('n-state', { groups: ['switching'] })]);
      await messagesUpTo(out, 1, 'the first reading');
      const refusal = (() => {
        try {
          resyncIntervalMs('often');
        } catch (error) {
          return (error as Error).message;
        }
        throw new Error('the resync took "often"');
      })();
      should(refusal).match(/seconds from 1 to \d+; it is a string$/);
      should(allLogText()).containEql(
        translate('conference-audio-device.errors.stateResync', {
          message: refusal,
          seconds: DEFAULT_RESYNC_SECONDS,
        }),
      );
    });
  });
});

describe('device state node properties (definition)', () => {
  it('follows every group when none is saved, in the order of the groups', () => {
    should(readStateGroups(undefined)).eql({ ok: true, value: [...STATE_GROUPS] });
    should(readStateGroups(['network', 'audio'])).eql({ ok: true, value: ['audio', 'network'] });
  });

  it('reads a comma-separated text, as a hand-written flow has it', () => {
    should(readStateGroups(' status, profiles ')).eql({ ok: true, value: ['status', 'profiles'] });
  });

  it('names an unknown group and keeps the known ones', () => {
    const read = readStateGroups(['audio', 'lights']);
    should(read.ok).be.false();
    if (!read.ok) {
      should(read.fallback).eql(['audio']);
      should(read.reason).containEql('"lights"');
    }
  });

  it('refuses an empty choice and falls back to every group', () => {
    const read = readStateGroups([]);
    should(read).eql({
      ok: false,
      fallback: [...STATE_GROUPS],
      reason: `no group chosen: choose from ${STATE_GROUPS.join(', ')}`,
    });
  });

  it('sends changes unless the output mode is all', () => {
    should(readOutputMode('all')).equal('all');
    should(readOutputMode('each')).equal('changes');
    should(readOutputMode(undefined)).equal('changes');
  });
});
