import should from 'should';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { messagesOf, TestCaller } from './helpers';

describe('simulator: client headers, login and authorization', () => {
  let simulator: DeviceSimulator;
  let caller: TestCaller;

  beforeEach(async () => {
    simulator = await startSimulator({ passwords: { general: 'general-secret', admin: 'admin-secret' } });
    caller = new TestCaller(simulator);
  });

  afterEach(async () => {
    await caller.close();
    await simulator.close();
  });

  describe('client headers', () => {
    it('answers 400 with one message per missing client header', async () => {
      const answer = await caller.call('GET', '/api/v1/heartbeat', { bare: true });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.eql(['Vendor-Client-Id is missing', 'Vendor-Client-Version is missing']);
    });

    it('names only the header that is missing', async () => {
      const answer = await caller.call('GET', '/api/v1/heartbeat', {
        bare: true,
        headers: { 'Vendor-Client-Id': 'tests' },
      });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.eql(['Vendor-Client-Version is missing']);
    });

    it('requires the client headers on the login too', async () => {
      const answer = await caller.call('POST', '/api/v1/auth/login', {
        bare: true,
        rawBody: JSON.stringify({ account: 'general', password: 'general-secret' }),
        headers: { 'Content-Type': 'application/json' },
      });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.have.length(2);
      simulator.counters.logins.should.equal(0);
    });

    it('matches client header names case-insensitively', async () => {
      const answer = await caller.call('GET', '/api/v1/heartbeat', {
        bare: true,
        headers: { 'VENDOR-CLIENT-ID': 'tests', 'vendor-client-version': '1' },
      });
      answer.status.should.equal(200);
    });

    it('refuses a client header longer than 500 characters', async () => {
      const answer = await caller.call('GET', '/api/v1/heartbeat', {
        headers: { 'Vendor-Client-Id': 'x'.repeat(501) },
      });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.eql(['Vendor-Client-Id must be at most 500 characters']);
    });

    it('builds the header names and the scheme from the configured vendor word', async () => {
      const acme = await startSimulator({ vendor: 'Acme', passwords: { general: 'pw' } });
      const acmeCaller = new TestCaller(acme, 'Acme');
      try {
        const missing = await acmeCaller.call('GET', '/api/v1/heartbeat', { headers: {}, bare: true });
        messagesOf(missing.json).should.eql(['Acme-Client-Id is missing', 'Acme-Client-Version is missing']);
        const token = await acmeCaller.login('general', 'pw');
        (await acmeCaller.call('GET', '/api/v1/audio', { token })).status.should.equal(200);
        const vendorScheme = await acmeCaller.call('GET', '/api/v1/audio', {
          headers: { Authorization: `Vendor ${token}` },
        });
        vendorScheme.status.should.equal(401);
      } finally {
        await acmeCaller.close();
        await acme.close();
      }
    });
  });

  describe('login', () => {
    it('answers 200 with authParameters for the right password', async () => {
      const answer = await caller.call('POST', '/api/v1/auth/login', {
        body: { account: 'general', password: 'general-secret' },
      });
      answer.status.should.equal(200);
      Object.keys(answer.json as object).should.eql(['authParameters']);
      (answer.json as { authParameters: string }).authParameters.should.be.a.String().and.not.be.empty();
    });

    it('answers 401 "Invalid account or password" for a wrong password', async () => {
      const answer = await caller.call('POST', '/api/v1/auth/login', {
        body: { account: 'admin', password: 'general-secret' },
      });
      answer.status.should.equal(401);
      messagesOf(answer.json).should.eql(['Invalid account or password']);
    });

    it('answers 400 Unsupported Attributes for an unknown or upper-case account', async () => {
      for (const account of ['root', 'Admin', 'GENERAL']) {
        const answer = await caller.call('POST', '/api/v1/auth/login', { body: { account, password: 'x' } });
        answer.status.should.equal(400);
        messagesOf(answer.json).should.eql(['Unsupported Attributes: account.']);
      }
    });

    it('answers 400 when a field is missing or not a string', async () => {
      const missing = await caller.call('POST', '/api/v1/auth/login', { body: { account: 'general' } });
      missing.status.should.equal(400);
      messagesOf(missing.json).should.eql(['Unsupported Attributes: password.']);
      const numeric = await caller.call('POST', '/api/v1/auth/login', { body: { account: 7, password: 7 } });
      messagesOf(numeric.json).should.eql([
        'Unsupported Attributes: account.',
        'Unsupported Attributes: password.',
      ]);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const answer = await caller.call('POST', '/api/v1/auth/login', {
        rawBody: '{account: general',
        headers: { 'Content-Type': 'application/json' },
      });
      answer.status.should.equal(400);
      messagesOf(answer.json).should.eql(['Request body is not valid JSON']);
    });

    it('accepts a blank general password on an older deployment', async () => {
      const older = await startSimulator();
      const olderCaller = new TestCaller(older);
      try {
        (await olderCaller.login('general', '')).should.be.a.String();
        (await olderCaller.login('admin', 'KQ7-4MZ-9TD')).should.be.a.String();
      } finally {
        await olderCaller.close();
        await older.close();
      }
    });

    it('counts successful and refused logins', async () => {
      await caller.login('general', 'general-secret');
      await caller.call('POST', '/api/v1/auth/login', { body: { account: 'general', password: 'wrong' } });
      await caller.call('POST', '/api/v1/auth/login', { body: { account: 'nobody', password: 'x' } });
      simulator.counters.logins.should.equal(1);
      simulator.counters.failedLogins.should.equal(2);
    });
  });

  describe('tokens', () => {
    it('gives the same token for the same account and password', async () => {
      const first = await caller.login('general', 'general-secret');
      const second = await caller.login('general', 'general-secret');
      second.should.equal(first);
    });

    it('lists every token it handed out, old ones too, and never in its state', async () => {
      const first = await caller.login('general', 'general-secret');
      await caller.login('general', 'general-secret');
      simulator.reboot();
      const second = await caller.login('general', 'general-secret');
      simulator.issuedTokens.should.eql([first, second]);
      JSON.stringify(simulator.getState()).should.not.containEql(first).and.not.containEql(second);
    });

    it('gives each account its own token', async () => {
      const general = await caller.login('general', 'general-secret');
      const admin = await caller.login('admin', 'admin-secret');
      admin.should.not.equal(general);
    });

    it('stops accepting the token when that account password changes', async () => {
      const general = await caller.login('general', 'general-secret');
      const admin = await caller.login('admin', 'admin-secret');
      simulator.setPassword('general', 'new-secret');
      (await caller.call('GET', '/api/v1/audio', { token: general })).status.should.equal(401);
      (await caller.call('GET', '/api/v1/audio', { token: admin })).status.should.equal(200);
      const fresh = await caller.login('general', 'new-secret');
      fresh.should.not.equal(general);
      (await caller.call('GET', '/api/v1/audio', { token: fresh })).status.should.equal(200);
    });

    it('stops accepting every token after a reboot', async () => {
      const general = await caller.login('general', 'general-secret');
      simulator.reboot();
      const answer = await caller.call('GET', '/api/v1/audio', { token: general });
      answer.status.should.equal(401);
      messagesOf(answer.json).should.eql(['Unauthorized']);
      (await caller.login('general', 'general-secret')).should.not.equal(general);
    });

    it('sets both passwords to the enrollment code on a factory reset', async () => {
      const general = await caller.login('general', 'general-secret');
      simulator.factoryReset();
      (await caller.call('GET', '/api/v1/audio', { token: general })).status.should.equal(401);
      const refused = await caller.call('POST', '/api/v1/auth/login', {
        body: { account: 'general', password: 'general-secret' },
      });
      refused.status.should.equal(401);
      (await caller.login('general', 'KQ7-4MZ-9TD')).should.be.a.String();
      (await caller.login('admin', 'KQ7-4MZ-9TD')).should.be.a.String();
    });
  });

  describe('authorization', () => {
    it('answers 401 Unauthorized without an Authorization header', async () => {
      const answer = await caller.call('GET', '/api/v1/room/zones');
      answer.status.should.equal(401);
      messagesOf(answer.json).should.eql(['Unauthorized']);
    });

    it('answers 401 to a malformed or unknown Authorization value', async () => {
      const token = await caller.login('general', 'general-secret');
      const values = [
        `Bearer ${token}`,
        `Vendor  ${token}`,
        `Vendor${token}`,
        'Vendor ',
        'Vendor not-a-token',
        token,
      ];
      for (const value of values) {
        const answer = await caller.call('GET', '/api/v1/room/zones', { headers: { Authorization: value } });
        should(answer.status).equal(401, `Authorization: ${value.replace(token, '<token>')}`);
      }
    });

    it('serves the API description and the heartbeat without authorization', async () => {
      const description = await caller.call('GET', '/api/v1');
      description.status.should.equal(200);
      (description.json as { apiVersion: string }).apiVersion.should.equal('v1');
      (await caller.call('GET', '/api/v1/heartbeat')).status.should.equal(200);
    });

    it('answers 403 to general on the admin-only security policy', async () => {
      const general = await caller.login('general', 'general-secret');
      const admin = await caller.login('admin', 'admin-secret');
      const refused = await caller.call('GET', '/api/v1/security/policy', { token: general });
      refused.status.should.equal(403);
      messagesOf(refused.json).should.eql(['Forbidden']);
      (await caller.call('GET', '/api/v1/security/policy', { token: admin })).status.should.equal(200);
    });

    it('lets admin use every general endpoint', async () => {
      const admin = await caller.login('admin', 'admin-secret');
      (await caller.call('GET', '/api/v1/room/zones', { token: admin })).status.should.equal(200);
    });

    it('answers 404 Not found to an unknown path once authorized', async () => {
      const token = await caller.login('general', 'general-secret');
      const answer = await caller.call('GET', '/api/v1/no/such/thing', { token });
      answer.status.should.equal(404);
      messagesOf(answer.json).should.eql(['Not found']);
    });
  });
});
