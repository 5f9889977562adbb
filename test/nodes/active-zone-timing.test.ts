import should from 'should';
import { type DeviceSimulator, type SimulatorOptions, sampleZones } from '../../src/simulator';
import { probeUntil } from '../support/wait';
import {
  activeZoneFlow,
  catchModule,
  completeModule,
  counter,
  eventsNodeDef,
  FAST_READINGS,
  helper,
  IN_PRESENTER,
  nodeModules,
  receiveUntilDone,
  requestNodeDef,
  until,
  useSimulator,
} from './support';

interface SampleZone {
  id: string;
}
const [presenter] = sampleZones() as [SampleZone];
const LAYOUT = '/api/v1/room/layout';
/** Longer than any test waits: a timing of this length never decides anything here. */
const NEVER_MS = 600_000;

type Answer = { zone: { id: string } | null; previous: { id: string } | null };
const answerOf = (msg: Record<string, unknown> | undefined) => (msg?.payload ?? {}) as Answer;

function describeWith(options: SimulatorOptions, title: string, body: (sim: () => DeviceSimulator) => void) {
  describe(title, () => {
    let sim: DeviceSimulator;
    useSimulator({ ...FAST_READINGS, ...options }, (started) => {
      sim = started;
    });
    body(() => sim);
  });
}

describe('active zone node: the device camera switching timing and msg.cameraInput', () => {
  let out: ReturnType<typeof counter>;
  let changes: ReturnType<typeof counter>;

  /**
   * The active zone node `n-active`, a request node `n-write` that writes as a client would, and an
   * events node on the change stream: it joins after the active zone node, so it hears a change second.
   */
  async function load(sim: DeviceSimulator, extra: Record<string, unknown>) {
    await helper.load(
      nodeModules(completeModule, catchModule),
      activeZoneFlow(sim, extra, [
        requestNodeDef('n-write', 'written'),
        { id: 'written', type: 'helper', z: 'f1' },
        eventsNodeDef('n-changes', 'changes', { events: ['changes'] }),
        { id: 'changes', type: 'helper', z: 'f1' },
      ]),
    );
    out = counter(helper.getNode('out'));
    changes = counter(helper.getNode('changes'));
    await until(() => sim.openStreams >= 2, 'the data and change streams');
  }

  /** Writes the complete camera switching defaults (the device takes no part of them), and waits for the news. */
  async function writeDefaults(defaults: Record<string, unknown>) {
    const before = changes.count;
    const written = counter(helper.getNode('written'));
    helper
      .getNode('n-write')
      .receive({ method: 'PATCH', path: LAYOUT, payload: { cameraSwitcherDefaults: defaults } });
    await until(() => written.count === 1, 'the layout written');
    should(written.messages[0]?.statusCode).equal(200);
    await until(() => changes.count > before, 'the layout change announced');
  }

  /** What the node answers when asked (an input message). */
  async function ask(): Promise<Record<string, unknown> | undefined> {
    const ok = counter(helper.getNode('ok'));
    const failed = counter(helper.getNode('failed'));
    await receiveUntilDone('n-active', {}, { ok, failed });
    return out.messages.at(-1);
  }

  describeWith({}, 'timing', (sim) => {
    it('with timing "device" follows a change of the device\'s wait times, keeping the active zone', async () => {
      await load(sim(), { timing: 'device', hold: NEVER_MS, release: NEVER_MS });
      await writeDefaults({
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: 0,
        switchToDefaultWaitTime: NEVER_MS,
      });
      sim().placeTalker(IN_PRESENTER);
      await until(() => out.count >= 1, "the active zone after the device's hold");
      should(answerOf(out.messages[0]).zone?.id).equal(presenter.id);

      await writeDefaults({
        defaultCameraInputPort: 'USB2',
        zonesTriggerWaitTime: 0,
        switchToDefaultWaitTime: 500,
      });
      should(out.count).equal(1);
      sim().silenceTalker();
      await until(() => out.count >= 2, "the release after the device's new release time");
      should(answerOf(out.messages[1])).containDeep({ zone: null, previous: { id: presenter.id } });
      should(out.messages[1]?.cameraInput).equal('USB2');
    });

    it('without a timing property (a flow saved before it) keeps the hold and release set on the node', async () => {
      await load(sim(), { hold: 0, release: 500 });
      await writeDefaults({
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: NEVER_MS,
        switchToDefaultWaitTime: NEVER_MS,
      });
      sim().placeTalker(IN_PRESENTER);
      await until(() => out.count >= 1, "the active zone after the node's hold");
      sim().silenceTalker();
      await until(() => out.count >= 2, "the release after the node's release time");
      should(answerOf(out.messages[1]).zone).be.null();
    });

    it("warns that a device's release shorter than readings allow is raised", async () => {
      await load(sim(), { timing: 'device' });
      await writeDefaults({
        defaultCameraInputPort: 'HDMI',
        zonesTriggerWaitTime: 0,
        switchToDefaultWaitTime: 100,
      });
      const warned = (helper.getNode('n-active').warn as unknown as { getCalls(): { args: unknown[] }[] })
        .getCalls()
        .map((call) => String(call.args[0]));
      should(warned.some((text) => /switchToDefaultWaitTime 100 ms .* using 500 ms/.test(text))).be.true();
    });
  });

  // Firmware that keeps the zones in the layout maps one camera input to each zone, USB1 to the first.
  describeWith({ firmware: 'layout' }, 'msg.cameraInput', (sim) => {
    it("carries the active zone's camera input from the layout's map", async () => {
      await load(sim(), { hold: 0, release: 500 });
      sim().placeTalker(IN_PRESENTER);
      await until(() => out.count >= 1, 'the active zone');
      should(out.messages[0]).containDeep({ payload: { zone: { id: presenter.id } }, cameraInput: 'USB1' });
    });

    it("carries the device's default camera input when no zone is active", async () => {
      await load(sim(), { hold: 0, release: 500 });
      // The device's defaults are read after the deploy; until then the input is not known (null).
      const answered = await probeUntil('the default camera input', async () => {
        const answer = await ask();
        return answer?.cameraInput === null ? undefined : answer;
      });
      should(answered).containDeep({ payload: { zone: null }, cameraInput: 'HDMI' });
    });
  });
});
