import should from 'should';
import {
  type DeviceSimulator,
  type RecordedRequest,
  type SimulatorState,
  startSimulator,
} from '../../src/simulator';
import { messagesOf, TestCaller } from './helpers';

describe('simulator: request log, counters and control endpoints', () => {
  let simulator: DeviceSimulator;
  let caller: TestCaller;

  beforeEach(async () => {
    simulator = await startSimulator({ passwords: { general: 'general-secret' } });
    caller = new TestCaller(simulator);
  });

  afterEach(async () => {
    await caller.close();
    await simulator.close();
  });

  describe('request log and counters', () => {
    it('records each request with method, path without query, headers as received and status', async () => {
      const token = await caller.login('general', 'general-secret');
      await caller.call('GET', '/api/v1/room/zones?fresh=1', { token });
      simulator.requests.should.have.length(2);
      const [login, zones] = simulator.requests as [RecordedRequest, RecordedRequest];
      login.should.have.properties({ method: 'POST', path: '/api/v1/auth/login', status: 200 });
      zones.should.have.properties({ method: 'GET', path: '/api/v1/room/zones', status: 200 });
      zones.headers.should.have.properties({
        'vendor-client-id': 'simulator-tests',
        'vendor-client-version': '1.0.0',
        authorization: `Vendor ${token}`,
      });
      zones.time.should.be.aboveOrEqual(login.time);
    });

    it('counts requests by path', async () => {
      const token = await caller.login('general', 'general-secret');
      await caller.call('GET', '/api/v1/room/zones', { token });
      await caller.call('GET', '/api/v1/room/zones', { token });
      await caller.call('GET', '/api/v1/heartbeat', { bare: true });
      simulator.counters.requestsByPath.should.eql({
        '/api/v1/auth/login': 1,
        '/api/v1/room/zones': 2,
        '/api/v1/heartbeat': 1,
      });
    });

    it('neither records nor counts control requests', async () => {
      await caller.control('GET', 'state');
      await caller.control('PUT', 'model', { model: '410' });
      simulator.requests.should.be.empty();
      simulator.counters.requestsByPath.should.eql({});
    });

    it('starts the log and the counters over on resetRecords', async () => {
      await caller.login('general', 'general-secret');
      await caller.call('POST', '/api/v1/auth/login', { body: { account: 'general', password: 'wrong' } });
      simulator.resetRecords();
      simulator.requests.should.be.empty();
      simulator.counters.should.eql({
        logins: 0,
        failedLogins: 0,
        rateLimited: 0,
        streamConnections: 0,
        requestsByPath: {},
      });
    });
  });

  describe('control endpoints', () => {
    it('reports the state without any password or token', async () => {
      const token = await caller.login('general', 'general-secret');
      const answer = await caller.control('GET', 'state');
      answer.status.should.equal(200);
      const state = answer.json as SimulatorState;
      state.should.have.properties({ model: '410', firmware: 'classic', vendor: 'Vendor' });
      state.accounts.should.eql({ general: 'set', admin: 'set' });
      state.counters.logins.should.equal(1);
      (state.zones as unknown[]).should.have.length(3);
      answer.text.should.not.containEql('general-secret');
      answer.text.should.not.containEql(token);
      answer.text.should.not.containEql(simulator.enrollmentCode);
    });

    it('sets the zones from an array or from {zones}', async () => {
      (await caller.control('PUT', 'zones', [])).status.should.equal(200);
      should(simulator.getState().zones).eql([]);
      await caller.control('PUT', 'zones', { zones: [{ label: 'only' }] });
      should(simulator.getState().zones).eql([{ label: 'only' }]);
    });

    it('changes a password, which invalidates that account token', async () => {
      const token = await caller.login('general', 'general-secret');
      (
        await caller.control('PUT', 'password', { account: 'general', password: 'changed' })
      ).status.should.equal(200);
      (await caller.call('GET', '/api/v1/audio', { token })).status.should.equal(401);
      (await caller.login('general', 'changed')).should.not.equal(token);
    });

    it('reboots, which invalidates every token', async () => {
      const token = await caller.login('general', 'general-secret');
      (await caller.control('POST', 'reboot')).status.should.equal(200);
      (await caller.call('GET', '/api/v1/audio', { token })).status.should.equal(401);
    });

    it('factory-resets both passwords to the enrollment code', async () => {
      const answer = await caller.control('POST', 'factory-reset');
      (answer.json as SimulatorState).accounts.should.eql({ general: 'set', admin: 'set' });
      (await caller.login('general', 'KQ7-4MZ-9TD')).should.be.a.String();
    });

    it('sets and clears a fault', async () => {
      await caller.control('PUT', 'fault', { kind: 'status', status: 500, path: '/api/v1/heartbeat' });
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(500);
      await caller.control('PUT', 'fault', null);
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(200);
    });

    it('refuses a malformed fault with 400 and keeps the current one', async () => {
      await caller.control('PUT', 'fault', { kind: 'reset', path: '/api/v1/audio' });
      const answer = await caller.control('PUT', 'fault', { kind: 'status', status: 'many' });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.eql(['fault.status must be an HTTP status from 100 to 599']);
      should(simulator.getState().fault).eql({ kind: 'reset', path: '/api/v1/audio' });
    });

    it('changes the model', async () => {
      await caller.control('PUT', 'model', { model: '310' });
      const token = await caller.login('general', 'general-secret');
      (await caller.call('GET', '/api/v1/room/zones', { token })).status.should.equal(409);
    });

    it('changes the firmware and its layout spelling', async () => {
      await caller.control('PUT', 'firmware', { firmware: 'layout', layoutSpelling: 'zoneId' });
      simulator.getState().should.have.properties({ firmware: 'layout', layoutSpelling: 'zoneId' });
    });

    it('changes the error format and the rate limit', async () => {
      await caller.control('PUT', 'error-format', { errorFormat: 'problem-details' });
      await caller.control('PUT', 'rate-limit', { perMinute: 7, status: 409 });
      simulator.getState().should.have.properties({
        errorFormat: 'problem-details',
        rateLimitPerMinute: 7,
        rateLimitStatus: 409,
      });
    });

    it('lists the recorded requests and resets them', async () => {
      await caller.call('GET', '/api/v1/heartbeat');
      const listed = await caller.control('GET', 'requests');
      (listed.json as RecordedRequest[]).map((request) => request.path).should.eql(['/api/v1/heartbeat']);
      await caller.control('POST', 'reset-records');
      should((await caller.control('GET', 'requests')).json).eql([]);
    });

    it('answers 400 to a body that is not JSON and 404 to an unknown control', async () => {
      const bad = await caller.call('PUT', '/_simulator/model', { bare: true, rawBody: '310,' });
      bad.status.should.equal(400);
      (await caller.control('POST', 'self-destruct')).status.should.equal(404);
    });

    it('answers 405 to the wrong method on a control', async () => {
      (await caller.control('POST', 'state')).status.should.equal(405);
    });
  });

  describe('stats()', () => {
    it('counts every HTTP request and connection, controls included, in a snapshot', async () => {
      const before = simulator.stats();
      await caller.control('GET', 'state');
      await caller.call('GET', '/api/v1/heartbeat', { bare: true });
      const after = simulator.stats();
      should(after.httpRequests - before.httpRequests).equal(2);
      should(after.connections).be.above(0);
      should(after.requestsByPath).eql({ '/api/v1/heartbeat': 1 });
      await caller.call('GET', '/api/v1/heartbeat', { bare: true });
      should(after.requestsByPath).eql({ '/api/v1/heartbeat': 1 }, 'a snapshot, not live');
    });
  });

  describe('device controls over HTTP', () => {
    it('unplugs a bar, sets an LED, USB and components, and answers the new state', async () => {
      await caller.control('PUT', 'bar', { unplugged: true });
      await caller.control('PUT', 'led', { led: 'networkA', colour: 'red', state: 'solid' });
      await caller.control('PUT', 'usb', { status: 'disconnected', form: 'connected' });
      const answer = await caller.control('PUT', 'components', { status: 'unknown' });
      should(answer.status).equal(200);
      should(answer.json).have.properties({
        barUnplugged: true,
        usb: 'disconnected',
        usbEventForm: 'connected',
        components: 'unknown',
      });
      should((answer.json as SimulatorState).leds.networkA).eql({ colour: 'red', state: 'solid' });
    });

    it('sets the firmware version, write answer, volume scale, calibration time and audio', async () => {
      await caller.control('PUT', 'firmware-version', { firmwareVersion: '2.0.1' });
      await caller.control('PUT', 'write-answer', { writeAnswer: 'echo' });
      await caller.control('PUT', 'volume-scale', { max: 100, step: 5 });
      await caller.control('PUT', 'calibration', { ms: 100 });
      const answer = await caller.control('PUT', 'audio', { microphoneMute: true });
      should(answer.json).have.properties({
        firmwareVersion: '2.0.1',
        writeAnswer: 'echo',
        volumeScale: { max: 100, step: 5 },
        calibrationMs: 100,
      });
      should((answer.json as SimulatorState).audio).have.property('microphoneMute', true);
    });

    it('replaces the profiles and switches the active one', async () => {
      const profiles = [
        { profileId: 'p-1', name: 'Talk' },
        { profileId: 'p-2', name: 'Panel' },
      ];
      await caller.control('PUT', 'profiles', { profiles, active: 'p-1' });
      const answer = await caller.control('POST', 'profiles/active', { profileId: 'p-2' });
      should((answer.json as SimulatorState).profiles).eql([
        { profileId: 'p-1', name: 'Talk', active: false },
        { profileId: 'p-2', name: 'Panel', active: true },
      ]);
    });

    for (const [name, path, body, message] of [
      ['an unknown LED colour', 'led', { led: 'console', colour: 'blue', state: 'solid' }, /leds must map/],
      [
        'a firmware version that is not one',
        'firmware-version',
        { firmwareVersion: 'latest' },
        /firmwareVersion must be a version/,
      ],
      ['a volume range of 50', 'volume-scale', { max: 50, step: 1 }, /volumeScale must be/],
      ['an unknown profile id', 'profiles/active', { profileId: 'nope' }, /no profile has the id nope/],
      ['an unknown audio field', 'audio', { mute: true }, /mute is not an audio field/],
      ['a switcher field of the wrong type', 'camera-switcher', { enabled: 'yes' }, /enabled is not a field/],
    ] as const) {
      it(`answers 400 to ${name}`, async () => {
        const answer = await caller.control(path.startsWith('profiles/') ? 'POST' : 'PUT', path, body);
        should(answer.status).equal(400);
        should(messagesOf(answer.json)[0]).match(message);
      });
    }

    it('never puts the enrollment code in the state', async () => {
      const answer = await caller.control('GET', 'state');
      should(answer.text).not.containEql(simulator.enrollmentCode);
    });
  });
});
