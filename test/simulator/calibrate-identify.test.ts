import should from 'should';
import { DeviceUnderTest, messagesOf, problemsOf } from './helpers';

const CALIBRATE = '/api/v1/audio/calibrate';
const IDENTIFY = '/api/v1/audio/identify';

describe('simulator: calibrate and identify', () => {
  const device = new DeviceUnderTest();
  afterEach(() => device.stop());

  describe('POST /api/v1/audio/calibrate', () => {
    it('announces started, then completed once the run time is over', async () => {
      await device.start({ calibrationMs: 50 });
      const answer = await device.call('POST', CALIBRATE);
      should([answer.status, answer.json]).eql([200, {}]);
      should(await device.event(CALIBRATE)).eql({ status: 'started' });
      should(await device.event(CALIBRATE, 2)).eql({ status: 'completed' });
    });

    it('shows the run in the state while it lasts', async () => {
      await device.start({ calibrationMs: 60_000 });
      await device.call('POST', CALIBRATE);
      should(device.simulator.getState().calibrating).be.true();
    });

    it('restarts the run on a second calibrate without a second started', async () => {
      await device.start({ calibrationMs: 60_000 });
      await device.call('POST', CALIBRATE);
      await device.event(CALIBRATE);
      device.simulator.setCalibrationMs(20);
      await device.call('POST', CALIBRATE);
      should(await device.event(CALIBRATE, 2)).eql({ status: 'completed' });
      should(device.events(CALIBRATE).map((event) => JSON.parse(event.data).status)).eql([
        'started',
        'completed',
      ]);
    });

    it('answers 409 Speaker bar disconnected with a bar unplugged, and starts nothing', async () => {
      await device.start({ barUnplugged: true });
      const answer = await device.call('POST', CALIBRATE);
      should(answer.status).equal(409);
      should(messagesOf(answer.json)).eql(['Speaker bar disconnected']);
      should(device.simulator.getState().calibrating).be.false();
    });
  });

  describe('POST /api/v1/audio/identify', () => {
    it('answers 200 {} with no body', async () => {
      await device.start();
      const answer = await device.call('POST', IDENTIFY);
      should([answer.status, answer.json]).eql([200, {}]);
    });

    it('refuses firmware older than 1.8', async () => {
      await device.start({ firmwareVersion: '1.7.99' });
      const answer = await device.call('POST', IDENTIFY);
      should(answer.status).equal(400);
      should(messagesOf(answer.json)).eql(['Unsupported. Firmware version is < 1.8.0.']);
    });

    it('refuses a body with a port key in the problem-details shape, schema error 1000', async () => {
      await device.start();
      const answer = await device.call('POST', IDENTIFY, { body: { port: 1 } });
      should(answer.status).equal(400);
      should(answer.headers['content-type']).startWith('application/problem+json');
      should(answer.json).have.properties({ title: 'One or more problems occurred', errorLevel: 'ERROR' });
      should(problemsOf(answer.json).map((problem) => problem.errorCode)).eql([1000]);
    });

    it('refuses a body that is not JSON in the problem-details shape', async () => {
      await device.start();
      const answer = await device.call('POST', IDENTIFY, { rawBody: '{port' });
      should(answer.status).equal(400);
      should(problemsOf(answer.json)).have.length(1);
    });
  });
});
