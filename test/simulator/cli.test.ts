import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import should from 'should';
import { Agent, request } from 'undici';
import type { DeviceSimulator } from '../../src/simulator';
import { CERTIFICATE_FILE, KEY_FILE } from '../../src/simulator/certificate-store';
import { type CliOutput, main, parseCliArguments } from '../../src/simulator/cli';

const cliPath = join(__dirname, '..', '..', 'src', 'simulator', 'cli.ts');

function startCli(args: string[]): { child: ChildProcess; output: () => string; stderr: () => string } {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', cliPath, ...args], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, output: () => stdout, stderr: () => stderr };
}

async function waitForOutput(read: () => string, text: string, child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit').then(() => {
    throw new Error(`CLI exited before printing "${text}"`);
  });
  const printed = (async () => {
    while (!read().includes(text)) await new Promise((resolve) => setTimeout(resolve, 20));
  })();
  await Promise.race([printed, exited]);
}

function peerFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.once('error', reject);
  });
}

async function loginOver(url: string, password: string): Promise<string> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    const answer = await request(`${url}/api/v1/auth/login`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'Vendor-Client-Id': 'cli-test',
        'Vendor-Client-Version': '1',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ account: 'general', password }),
    });
    return ((await answer.body.json()) as { authParameters: string }).authParameters;
  } finally {
    await agent.close();
  }
}

function capture(): CliOutput & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

describe('simulator: command line', () => {
  describe('parseCliArguments', () => {
    it('listens on port 8443 of 127.0.0.1 by default', () => {
      should(parseCliArguments([])).eql({ kind: 'run', options: { port: 8443 } });
    });

    it('turns every flag into an option', () => {
      const parsed = parseCliArguments([
        '--host=0.0.0.0',
        '--port=0',
        '--password=pw',
        '--admin-password=apw',
        '--model=X',
        '--zones=room.json',
        '--vendor=Acme',
        '--firmware=layout',
        '--layout-spelling=mixed',
        '--factory-reset',
        '--enrollment-code=AB1-CD2-EF3',
      ]);
      should(parsed).eql({
        kind: 'run',
        options: {
          host: '0.0.0.0',
          port: 0,
          passwords: { general: 'pw', admin: 'apw' },
          model: 'X',
          zonesFile: 'room.json',
          vendor: 'Acme',
          firmware: 'layout',
          layoutSpelling: 'mixed',
          factoryReset: true,
          enrollmentCode: 'AB1-CD2-EF3',
        },
      });
    });

    it('turns the device-state and variant flags into options', () => {
      const parsed = parseCliArguments([
        '--firmware-version=2.0.1-3',
        '--bar-unplugged',
        '--led-console=red,blinking',
        '--led-network=yellow,solid',
        '--usb=disconnected',
        '--components=unknown',
        '--usb-event=connected',
        '--calibration-time=500',
        '--volume-range=100',
        '--volume-step=5',
        '--write-answer=echo',
        '--rate-limit=30',
        '--rate-limit-status=409',
        '--bodyless-events=/api/v1/network/configuration',
        '--layout-zone-extras={"on":true}',
      ]);
      should(parsed).eql({
        kind: 'run',
        options: {
          port: 8443,
          firmwareVersion: '2.0.1-3',
          barUnplugged: true,
          leds: {
            console: { colour: 'red', state: 'blinking' },
            networkA: { colour: 'yellow', state: 'solid' },
          },
          usb: 'disconnected',
          components: 'unknown',
          usbEventForm: 'connected',
          calibrationMs: 500,
          volumeScale: { max: 100, step: 5 },
          writeAnswer: 'echo',
          rateLimitPerMinute: 30,
          rateLimitStatus: 409,
          bodylessEvents: ['/api/v1/network/configuration'],
          layoutZoneExtras: { on: true },
        },
      });
    });

    it('names the profiles and makes the chosen one active', () => {
      const parsed = parseCliArguments(['--profiles=Talk, Panel', '--active-profile=Panel']);
      if (parsed.kind !== 'run') throw new Error(`not run: ${JSON.stringify(parsed)}`);
      const profiles = parsed.options.profiles ?? [];
      should(profiles.map((profile) => profile.name)).eql(['Talk', 'Panel']);
      should(parsed.options.activeProfile).equal(profiles[1]?.profileId);
    });

    it('turns the live-stream flags into options', () => {
      const parsed = parseCliArguments([
        '--talker=still',
        '--talker-at=-1200,3400',
        '--muted',
        '--stall-streams',
        '--sound-location-interval=50',
        '--metrics-interval=1000',
        '--stream-limit=10',
      ]);
      should(parsed).eql({
        kind: 'run',
        options: {
          port: 8443,
          talker: 'still',
          talkerAt: { x: -1200, y: 3400 },
          muted: true,
          stallStreams: true,
          soundLocationIntervalMs: 50,
          metricsIntervalMs: 1000,
          streamConnectionsPerMinute: 10,
        },
      });
    });

    const badFlags: [string[], RegExp][] = [
      [['--talker', 'run'], /--talker must be walk, still or off/],
      [['--talker-at', '12'], /--talker-at must be two numbers/],
      [['--stream-limit', '0'], /--stream-limit must be a whole number/],
      [['--colour'], /colour/],
      [['--port', 'https'], /--port must be a number/],
      [['--port', '70000'], /--port must be a number/],
      [['--model', '420'], /--model must be 310, 410 or X/],
      [['--firmware', 'beta'], /--firmware must be classic or layout/],
      [['--layout-spelling', 'Zone-Id'], /--layout-spelling must be one of/],
      [['--vendor', 'Two Words'], /--vendor must be a word/],
      [['--enrollment-code', 'abc'], /--enrollment-code must look like/],
      [['extra'], /extra/],
      [['--firmware-version', 'two'], /--firmware-version must be a version/],
      [['--led-console', 'blue,solid'], /--led-console or --led-network must map/],
      [['--usb', 'plugged'], /--usb must be one of connected, disconnected, unknown/],
      [['--volume-range', '50'], /--volume-range and --volume-step must be/],
      [['--write-answer', 'nothing'], /--write-answer must be empty-object, empty-body or echo/],
      [['--rate-limit-status', '503'], /--rate-limit-status must be 429 or 409/],
      [['--active-profile', 'Party'], /--active-profile must be one of Standard, Workshop, Lecture/],
      [['--layout-zone-extras', 'on'], /--layout-zone-extras must be a JSON object/],
      [['--profiles', 'A,B,C,D'], /--profiles must be at most 3/],
    ];
    for (const [argv, message] of badFlags) {
      it(`refuses ${argv.join(' ')} with a clear message`, () => {
        const parsed = parseCliArguments(argv);
        parsed.kind.should.equal('error');
        if (parsed.kind === 'error') parsed.message.should.match(message);
      });
    }
  });

  describe('main', () => {
    it('exits with code 2 and a hint on a bad flag', async () => {
      const output = capture();
      const result = await main(['--model', '420'], output);
      result.exitCode.should.equal(2);
      should(result.simulator).be.undefined();
      output.errors.join('\n').should.match(/--model must be 310, 410 or X[\s\S]*--help/);
    });

    it('exits with code 2 when the zones file cannot be read', async () => {
      const output = capture();
      const result = await main(['--port', '0', '--zones', join(__dirname, 'no-such-file.json')], output);
      result.exitCode.should.equal(2);
      output.errors.join('\n').should.match(/Cannot read zones file .*no-such-file\.json: ENOENT/);
    });

    it('prints the usage on --help', async () => {
      const output = capture();
      (await main(['--help'], output)).exitCode.should.equal(0);
      output.lines.join('\n').should.match(/--layout-spelling/);
    });

    it('says which passwords are blank or set without printing them', async () => {
      const output = capture();
      const result = await main(['--port', '0', '--admin-password', 'admin-secret-1'], output);
      try {
        const printed = output.lines.join('\n');
        printed.should.match(/general password blank, admin password set/);
        printed.should.not.containEql('admin-secret-1');
        printed.should.not.containEql('KQ7-4MZ-9TD');
      } finally {
        await result.simulator?.close();
      }
    });
  });

  describe('a certificate kept in --state-dir', () => {
    let stateDir: string;
    beforeEach(async () => {
      stateDir = await mkdtemp(join(tmpdir(), 'simulator-state-'));
    });
    afterEach(() => rm(stateDir, { recursive: true, force: true }));

    /** Starts and stops the simulator with `argv`; its fingerprint and what it printed. */
    async function startOnce(...argv: string[]): Promise<{ fingerprint: string; printed: string }> {
      const output = capture();
      const result = await main(['--port', '0', '--state-dir', stateDir, ...argv], output);
      should(result.exitCode).equal(0, output.errors.join('\n'));
      const simulator = result.simulator as DeviceSimulator;
      try {
        const fingerprint = await peerFingerprint(simulator.url);
        should(fingerprint).equal(simulator.fingerprint256);
        return { fingerprint, printed: output.lines.join('\n') };
      } finally {
        await simulator.close();
      }
    }

    it('gives the same certificate at a second start with the same folder', async () => {
      const first = await startOnce();
      const second = await startOnce();
      should(second.fingerprint).equal(first.fingerprint);
      should(first.printed).match(/Certificate:\s+new \(none kept\), saved in/);
      should(second.printed).match(/Certificate:\s+kept in/);
    });

    it('makes a new certificate with --new-certificate, and keeps that one from then on', async () => {
      const first = await startOnce();
      const renewed = await startOnce('--new-certificate');
      const after = await startOnce();
      should(renewed.fingerprint).not.equal(first.fingerprint);
      should(after.fingerprint).equal(renewed.fingerprint);
    });

    it('keeps the private key owner-only', async function () {
      if (process.platform === 'win32') this.skip();
      await startOnce();
      should((await stat(join(stateDir, KEY_FILE))).mode & 0o777).equal(0o600);
    });

    it('refuses a kept certificate that is broken, naming the file and the way out, and replaces nothing', async () => {
      await startOnce();
      await writeFile(join(stateDir, CERTIFICATE_FILE), 'not a certificate');
      const output = capture();
      const result = await main(['--port', '0', '--state-dir', stateDir], output);
      should(result.simulator).be.undefined();
      should(result.exitCode).equal(2);
      should(output.errors.join('\n'))
        .match(/simulator-cert\.pem is not a PEM certificate/)
        .and.match(/--new-certificate/);
      should(await readFile(join(stateDir, CERTIFICATE_FILE), 'utf8')).equal('not a certificate');
    });

    it('refuses --new-certificate without --state-dir', () => {
      const parsed = parseCliArguments(['--new-certificate']);
      should(parsed.kind).equal('error');
    });
  });

  describe('as a process', () => {
    it('prints the URL and the fingerprint a client sees, never the password, and stops on SIGTERM', async () => {
      const cli = startCli(['--port', '0', '--password', 'general-secret-9', '--model', '410']);
      let token = '';
      try {
        await waitForOutput(cli.output, 'Press Ctrl+C', cli.child);
        const url = /URL:\s+(https:\/\/127\.0\.0\.1:\d+)/.exec(cli.output())?.[1];
        const fingerprint = /SHA-256 ([0-9A-F:]{95})/.exec(cli.output())?.[1];
        should(url).be.a.String();
        should(fingerprint).be.a.String();
        (await peerFingerprint(url as string)).should.equal(fingerprint);
        cli.output().should.match(/Model:\s+410/);
        token = await loginOver(url as string, 'general-secret-9');
      } finally {
        cli.child.kill('SIGTERM');
      }
      const [code] = await once(cli.child, 'exit');
      should(code).equal(0);
      token.should.not.be.empty();
      (cli.output() + cli.stderr()).should.not.containEql('general-secret-9');
      (cli.output() + cli.stderr()).should.not.containEql(token);
    });

    it('exits with code 2 on a bad flag', async () => {
      const cli = startCli(['--port', 'many']);
      const [code] = await once(cli.child, 'exit');
      should(code).equal(2);
      cli.stderr().should.match(/--port must be a number/);
    });
  });
});
