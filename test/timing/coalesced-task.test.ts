import should from 'should';
import { CoalescedTask } from '../../src/timing/coalesced-task';
import { until } from '../support/wait';

/** A task whose runs the test ends one at a time. */
function controlledTask() {
  const pending: Array<() => void> = [];
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    finishRun: () => pending.shift()?.(),
    run: () =>
      new Promise<void>((resolve) => {
        runs++;
        pending.push(resolve);
      }),
  };
}

describe('device/coalesced-task', () => {
  it('serves every request made during a run with one more run after it', async () => {
    const task = controlledTask();
    const coalesced = new CoalescedTask(task.run, 0);
    for (let index = 0; index < 100; index++) coalesced.request();
    should(task.runs).equal(1);
    task.finishRun();
    await until(() => task.runs === 2, 'the queued run');
    task.finishRun();
    coalesced.request();
    await until(() => task.runs === 3, 'a run for a later request');
    task.finishRun();
  });

  it('forgets the queued run when cancelled, and runs again on a later request', async () => {
    const task = controlledTask();
    const coalesced = new CoalescedTask(task.run, 0);
    coalesced.request();
    coalesced.request();
    coalesced.cancel();
    task.finishRun();
    await new Promise((resolve) => setImmediate(resolve));
    should(task.runs).equal(1);
    coalesced.request();
    await until(() => task.runs === 2, 'the run after the cancel');
    task.finishRun();
  });

  it('resolves a request once the run that serves it has ended: the queued one for a request made during a run', async () => {
    const task = controlledTask();
    const coalesced = new CoalescedTask(task.run, 0);
    const served: string[] = [];
    void coalesced.request().then(() => served.push('first'));
    void coalesced.request().then(() => served.push('during the first run'));
    task.finishRun();
    await until(() => served.length === 1, 'the first run served');
    should(served).eql(['first']);
    await until(() => task.runs === 2, 'the queued run');
    task.finishRun();
    await until(() => served.length === 2, 'the queued run served');
  });

  it('resolves a request at once when its run is cancelled before it began', async () => {
    const task = controlledTask();
    const coalesced = new CoalescedTask(task.run, 0);
    void coalesced.request();
    let served = false;
    void coalesced.request().then(() => {
      served = true;
    });
    coalesced.cancel();
    await until(() => served, 'the cancelled request answered');
    should(task.runs).equal(1);
    task.finishRun();
  });

  it('runs nothing once closed', async () => {
    const task = controlledTask();
    const coalesced = new CoalescedTask(task.run, 0);
    coalesced.close();
    coalesced.request();
    should(task.runs).equal(0);
  });
});
