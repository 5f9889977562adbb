import should from 'should';
import { CHANGE_EVENTS, DEVICE_PATHS, STREAM_PATHS } from '../../src/api/protocol';
import { GROUP_RESOURCES, RESYNC_GROUPS, STATE_GROUPS } from '../../src/control';
import { DeviceError } from '../../src/errors';
import { sampleZones } from '../../src/simulator';
import { delay, until } from '../support/wait';
import { useStateHarness } from './state-harness';

describe('device/state: the state of one device, read and followed', () => {
  const harness = useStateHarness();
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('sends the first complete reading once, every group read once', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    await delay(100);
    should(follower.completions).have.length(1);
    should(Object.keys(follower.completions[0] ?? {})).eql([...STATE_GROUPS]);
    for (const group of STATE_GROUPS) should(harness.reads(GROUP_RESOURCES[group])).equal(1, group);
    should(connection.state.complete).be.true();
  });

  it('hands a subscriber that comes later the complete reading at once, without reading again', async () => {
    const connection = harness.connect();
    const first = await harness.followed(connection.state);
    harness.sim.resetRecords();
    const later = await harness.followed(connection.state);
    should(later.completions).eql(first.completions);
    should(harness.sim.requests).have.length(0);
  });

  it('polls the audio every audio interval: a change made on the device reaches subscribers', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0.05 });
    const follower = await harness.followed(connection.state);
    harness.sim.setAudio({ speakerTrebleLevel: 61 });
    await until(() => follower.of('audio').length === 2, 'the polled audio change');
    should(follower.of('audio')[1]?.changed).eql(['speakerTrebleLevel']);
    should(follower.of('audio')[1]?.next.speakerTrebleLevel).equal(61);
  });

  it('with an audio interval of 0 reads the audio once and never polls it', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0 });
    const follower = await harness.followed(connection.state);
    harness.sim.setAudio({ speakerTrebleLevel: 61 });
    await delay(400);
    should(harness.reads(DEVICE_PATHS.audio)).equal(1);
    should(follower.of('audio')).have.length(1);
  });

  it('reads the audio at once when the open data stream shows the microphone muted, and live again', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0 });
    const follower = await harness.followed(connection.state, ['audio']);
    // Another node (an active zone, say) holds the data stream: the state only listens to it.
    const streaming = new Promise<void>((resolve) => {
      const leave = connection.subscribeStream('data', {
        onEvent: () => {},
        onCondition: (condition) => {
          if (condition.state === 'streaming') resolve();
        },
      });
      closers.push(leave);
    });
    await streaming;
    const muteOf = (index: number) => follower.of('audio')[index]?.next.microphoneMute;
    // The device's own app: never announced on the change stream, and no audio poll.
    harness.sim.setAudio({ microphoneMute: true });
    await until(() => muteOf(1) === true, 'the mute read at once');
    harness.sim.setAudio({ microphoneMute: false });
    await until(() => muteOf(2) === false, 'the microphone live again, read at once');
  });

  it('does not open the data stream to watch the microphone', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0 });
    await harness.followed(connection.state, ['audio']);
    await delay(200);
    should(harness.sim.openStreams).equal(1);
    should(harness.sim.requests.some((request) => request.path.startsWith(DEVICE_PATHS.data))).be.false();
  });

  it('polls the audio only while a follower needs it: followers of other groups cost no audio reads', async () => {
    const connection = harness.connect({ audioIntervalSeconds: 0.05 });
    let completions = 0;
    const leave = connection.state.subscribe({
      groups: RESYNC_GROUPS,
      onComplete: () => completions++,
    });
    await until(() => completions === 1, 'the first complete reading');
    await delay(300);
    should(harness.reads(DEVICE_PATHS.audio)).equal(0);
    const audioFollower = await harness.followed(connection.state);
    harness.sim.setAudio({ speakerTrebleLevel: 61 });
    await until(
      () => audioFollower.of('audio').some((change) => change.next.speakerTrebleLevel === 61),
      'the polled audio change',
    );
    leave();
  });

  it('updates the status from an LED event, without reading it', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    harness.sim.setLed('networkA', { colour: 'red', state: 'blinking' });
    await until(() => follower.of('status').length === 2, 'the LED change');
    should(follower.of('status')[1]?.changed).eql(['leds']);
    should(follower.of('status')[1]?.next.leds).containEql({
      networkA: { colour: 'red', state: 'blinking' },
    });
    should(harness.reads(DEVICE_PATHS.status)).equal(1);
  });

  it('updates the USB status from a USB event in either form', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    harness.sim.setUsb('disconnected');
    harness.sim.setUsbEventForm('connected');
    harness.sim.setUsb('connected');
    await until(() => follower.of('status').length === 3, 'both USB changes');
    const usb = follower.of('status').map((change) => change.next.usb);
    should(usb).eql([{ status: 'connected' }, { status: 'disconnected' }, { status: 'connected' }]);
  });

  it('follows an unplugged speaker bar: the components status and the hardware change', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    harness.sim.setBarUnplugged(true);
    await until(
      () => follower.of('status').length === 2 && follower.of('hardware').length === 2,
      'the bar unplugged',
    );
    should(connection.state.current().status?.deviceComponents).eql({ status: 'disconnected' });
    should(follower.of('hardware')[1]?.changed.length).be.above(0);
  });

  it('reads the network configuration again for a network event with no body', async () => {
    harness.sim.setBodylessEvents([CHANGE_EVENTS.networkConfiguration]);
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    harness.sim.setNetwork({ gateway: '192.0.2.254' });
    await until(() => follower.of('network').length === 2, 'the network read again');
    should(follower.of('network')[1]?.next.networkConfiguration).match([{ gateway: '192.0.2.254' }]);
    should(harness.reads(DEVICE_PATHS.networkConfiguration)).equal(2);
  });

  it('reads the profiles again for a profile switch announced as a layout event', async () => {
    const connection = harness.connect();
    const follower = await harness.followed(connection.state);
    harness.sim.activateProfile(harness.sim.getState().profiles[1]?.profileId ?? '');
    await until(() => follower.of('profiles').length === 2, 'the profiles read again');
    should(follower.of('profiles')[1]?.changed).eql(['profiles']);
  });

  it('reads the profiles again for a layout event that changed nothing', async () => {
    const connection = harness.connect();
    await harness.followed(connection.state);
    harness.sim.setZones(sampleZones());
    await until(() => harness.reads(DEVICE_PATHS.profiles) === 2, 'the profiles read again');
  });

  it('reads everything again after the change stream reconnects', async () => {
    const connection = harness.connect();
    await harness.followed(connection.state);
    harness.sim.resetRecords();
    harness.sim.dropStreams();
    await until(
      () => RESYNC_GROUPS.every((group) => harness.reads(GROUP_RESOURCES[group]) === 1),
      'every announced group read again',
      10_000,
    );
  });

  it('reads everything again once a resync interval has passed', async () => {
    const connection = harness.connect({ stateResyncIntervalMs: 300 });
    await harness.followed(connection.state);
    harness.sim.resetRecords();
    await until(
      () => RESYNC_GROUPS.every((group) => harness.reads(GROUP_RESOURCES[group]) >= 1),
      'every announced group read again',
    );
  });

  const layoutReads = () => harness.reads(DEVICE_PATHS.layout);

  /** A connection whose state follows the layout alone, once the read at the change stream's open is done. */
  async function followingLayout(options: Parameters<typeof harness.connect>[0]): Promise<void> {
    const connection = harness.connect(options);
    await harness.followed(connection.state, ['switching']);
  }

  /** Following the layout, once the first timed resync has read it; the resync is not stretched. */
  async function afterFirstTimedResync(intervalMs: number): Promise<void> {
    await followingLayout({ stateResyncIntervalMs: intervalMs, stateSteadyResyncIntervalMs: intervalMs });
    await until(() => layoutReads() === 2, 'the first timed resync', intervalMs + 3000);
  }

  /** Drops the streams once the least gap between two reads of one resource has passed; waits for the read at their return. */
  async function afterReturn(): Promise<void> {
    // Past that gap, so that the return's read is not held back.
    await delay(1100);
    const before = layoutReads();
    harness.sim.dropStreams();
    // The stream returns within a second (its first reconnect waits half to all of one).
    await until(() => layoutReads() === before + 1, 'the read after the change stream returned', 5000);
  }

  it('puts the timed resync off by a whole interval after the change stream returns and everything is read', async () => {
    const intervalMs = 2500;
    await afterFirstTimedResync(intervalMs);
    await afterReturn();
    // A fixed rhythm would read again 0.4 to 0.9 s after the return (2.5 s after the first timed resync).
    await delay(intervalMs - 900);
    should(layoutReads()).equal(3);
    await until(() => layoutReads() === 4, 'the next timed resync', 5000);
  });

  it('leaves a timed resync that falls due while the change stream is reopening to the read at its return', async () => {
    const intervalMs = 3000;
    await afterFirstTimedResync(intervalMs);
    // Dropped 0.4 s before the next timed resync: the stream returns half a second to a second later.
    await delay(intervalMs - 400);
    harness.sim.dropStreams();
    await until(() => layoutReads() === 3, 'the read at the return', 5000);
    // Had the timed resync read while the stream was down, the return would read again within a second.
    await delay(2000);
    should(layoutReads()).equal(3);
  });

  it('stretches the timed resync while the change stream streams without a break', async () => {
    await followingLayout({ stateResyncIntervalMs: 400, stateSteadyResyncIntervalMs: 60_000 });
    // At the interval's rhythm this would be four or five more than the read at the open.
    await delay(2000);
    should(layoutReads()).equal(1);
  });

  it('keeps the interval rhythm for the interval after the change stream fails and returns', async () => {
    await followingLayout({ stateResyncIntervalMs: 1500, stateSteadyResyncIntervalMs: 60_000 });
    await afterReturn();
    should(layoutReads()).equal(2);
    await until(() => layoutReads() === 3, 'the timed resync an interval after the return', 5000);
    // Steady again: stretched.
    await delay(3500);
    should(layoutReads()).equal(3);
  });

  it('keeps the stretched resync across the reopen of a silent change stream', async () => {
    // 18 times this silence, 2.7 s, and the change stream is reopened; each reopen reads everything.
    await followingLayout({
      stateResyncIntervalMs: 2500,
      stateSteadyResyncIntervalMs: 60_000,
      streamIdleTimeoutMs: 150,
    });
    const opens = () => harness.reads(STREAM_PATHS.changes);
    await until(() => opens() >= 3, 'two reopens of the silent change stream', 20_000);
    const lastTime = (path: string) =>
      Math.max(...harness.sim.requests.filter((request) => request.path === path).map(({ time }) => time));
    await until(
      () => lastTime(DEVICE_PATHS.layout) >= lastTime(STREAM_PATHS.changes),
      'the read after the last reopen',
      5000,
    );
    // A read at each open; the interval's rhythm would add one after each.
    should(layoutReads()).equal(opens());
  });

  it("reads the groups of the minute's resync one after another, not in a burst of connections", async () => {
    const connection = harness.connect({ stateResyncIntervalMs: 1000 });
    await harness.followed(connection.state);
    // Each answer takes a while: reads made at once would all arrive within a few ms of each other.
    harness.sim.setFault({ kind: 'latency', ms: 150 });
    harness.sim.resetRecords();
    const resyncReads = () =>
      harness.sim.requests.filter((request) =>
        RESYNC_GROUPS.some((group) => request.path === GROUP_RESOURCES[group]),
      );
    await until(() => resyncReads().length >= RESYNC_GROUPS.length, 'one resync', 10_000);
    const arrivals = resyncReads()
      .slice(0, RESYNC_GROUPS.length)
      .map((request) => request.time);
    for (let index = 1; index < arrivals.length; index++)
      should((arrivals[index] ?? 0) - (arrivals[index - 1] ?? 0)).be.aboveOrEqual(100, `read ${index}`);
  });

  it('does not ask a model 310 for its profiles again once it refused them', async () => {
    harness.sim.setModel('310');
    const connection = harness.connect({ stateResyncIntervalMs: 300 });
    const follower = await harness.followed(connection.state);
    should(follower.completions[0]).not.have.property('profiles');
    harness.sim.emitChange(CHANGE_EVENTS.layout, {});
    await until(() => harness.reads(DEVICE_PATHS.hardware) >= 3, 'two resyncs');
    should(harness.reads(DEVICE_PATHS.profiles)).equal(1);
    should(follower.readErrors).eql([]);
  });

  it('tells its subscribers of a read that failed, and completes once the device answers again', async () => {
    harness.sim.setFault({ kind: 'status', status: 500, path: DEVICE_PATHS.hardware, times: 1 });
    const connection = harness.connect({ stateResyncIntervalMs: 300 });
    const follower = await harness.followed(connection.state);
    should(follower.readErrors.map(({ group }) => group)).eql(['hardware']);
    should(follower.readErrors[0]?.error).be.instanceOf(DeviceError);
    should(follower.completions[0]).have.property('hardware');
  });

  it('refuses an audio interval outside 0 to 60 seconds as INVALID_CONFIG', () => {
    should(() => harness.connect({ audioIntervalSeconds: 61 })).throw({ code: 'INVALID_CONFIG' });
  });
});
