import should from 'should';
import { setLoginPace, waitingLogins } from '../../src/api/login-pacer';
import type { DeviceConnection } from '../../src/device/connection';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { until } from '../support/wait';
import { connectTo } from './connect';

const PASSWORD = 'Close-Test-Pw-1';

describe('device/connection: closing', () => {
  let sim: DeviceSimulator;
  const connections: DeviceConnection[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ port: 0, passwords: { general: PASSWORD } });
    // One login a second: a second connection's login waits for its turn.
    setLoginPace({ perSecond: 1 });
  });
  afterEach(async () => {
    setLoginPace();
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await sim.close();
  });

  function connect(): DeviceConnection {
    const connection = connectTo(sim, { owner: `device-${connections.length}`, password: PASSWORD });
    connections.push(connection);
    return connection;
  }

  it('ends a stream whose login waits for its turn without logging in (a redeploy of many devices)', async () => {
    connect().subscribeStream('data', { onEvent: () => {} });
    await until(() => sim.openStreams === 1, 'the first connection streaming');
    const waiting = connect();
    waiting.subscribeStream('data', { onEvent: () => {} });
    await until(() => waitingLogins() === 1, "the second connection's login waiting for its turn");
    const closed = waiting.close();
    // The turn leaves the queue at once, not when it would have come.
    should(waitingLogins()).equal(0);
    await closed;
    should(sim.counters.logins).equal(1);
  });
});
