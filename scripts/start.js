#!/usr/bin/env node
// `npm start`: a complete demo on one machine with no device and no outside
// service. Starts the device simulator, an MQTT broker (aedes) and Node-RED
// with every example flow deployed (one tab each), pointed at both.
// Ctrl-C, SIGTERM or SIGHUP, sent to this script or to the npm that runs it,
// stops all three. package.json runs it with `exec`: the shell npm starts is
// replaced by node, so a signal npm passes on reaches this script rather than
// a shell that would die without passing it on (SIGTERM) or sit on it (SIGINT).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const { withOfflineSettings } = require('./offline-settings');

const root = path.resolve(__dirname, '..');
const DEMO_DIR_NAME = '.node-red-demo';
const LOCK_FILE = '.demo-lock';
const MAX_DEMO_DIRS = 9;
// The demo's flows_cred.json is written fresh at each start: a fixed key loses nothing, and without one
// Node-RED warns at every start that it made up a key of its own.
const DEMO_CREDENTIAL_SECRET = 'conference-audio-demo-only';
const DEVICE_TYPE = 'conference-audio-device';
const BROKER_TYPE = 'mqtt-broker';
// Inside the demo's user directory: the simulator's key and certificate, kept from one start to the next.
const SIMULATOR_STATE_DIR = 'simulator';

/** The example flows in menu order: `{ file, title, nodes }`. */
function loadExamples(examplesDir = path.join(root, 'examples')) {
  return fs
    .readdirSync(examplesDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      title: file.replace(/\.json$/, ''),
      nodes: JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')),
    }));
}

/**
 * All examples as one flow configuration: one tab per example, config nodes
 * shared across examples kept once (they carry the same id, as on import)
 * and pointed at the given device and broker. With `inlineCredentials`, the
 * device's blank password travels with the config (for `POST /flows`).
 */
function buildDemoFlows(examples, target) {
  const flows = [];
  const seenConfig = new Set();
  examples.forEach((example, index) => {
    // Each example file carries its named tab (so an import lands on it); one without gets its title.
    const tab = example.nodes.find((node) => node.type === 'tab');
    const tabId = tab?.id ?? example.nodes.find((node) => node.z)?.z ?? `demo-tab-${index + 1}`;
    if (!tab) flows.push({ id: tabId, type: 'tab', label: example.title, disabled: false, info: '' });
    // A subflow's nodes stay in it, as they are: they read the device and broker from its instances' env.
    const subflowIds = new Set(
      example.nodes.filter((node) => node.type === 'subflow').map((node) => node.id),
    );
    for (const original of example.nodes) {
      const node = { ...original };
      if (subflowIds.has(node.z)) {
        flows.push(node);
        continue;
      }
      if (node.z === undefined) {
        if (seenConfig.has(node.id)) continue;
        seenConfig.add(node.id);
      } else {
        node.z = tabId;
      }
      if (node.type.startsWith('subflow:') && target.devicePort !== undefined) {
        node.env = withEnv(node.env, {
          HOST: target.deviceHost ?? '127.0.0.1',
          PORT: String(target.devicePort),
        });
        // Node-RED leaves `${PASSWORD}` as it is for a blank credential: the demo device's blank password is text.
        const password = target.devicePassword ?? '';
        if (password === '')
          node.env = node.env?.map((entry) =>
            entry.name === 'PASSWORD' ? { name: 'PASSWORD', type: 'str', value: '' } : entry,
          );
        else if (target.inlineCredentials) node.credentials = { PASSWORD: password };
      }
      if (node.type === 'tab' && target.brokerPort !== undefined) {
        node.env = withEnv(node.env, {
          MQTT_HOST: target.brokerHost ?? '127.0.0.1',
          MQTT_PORT: String(target.brokerPort),
        });
      }
      if (node.type === DEVICE_TYPE && target.devicePort !== undefined) {
        node.host = target.deviceHost ?? '127.0.0.1';
        node.port = target.devicePort;
        if (target.inlineCredentials) node.credentials = { password: target.devicePassword ?? '' };
      }
      // Example 4 calls a camera stand-in served by its own Node-RED; the demo's Node-RED may not be on 1880.
      if (node.type === 'http request' && target.nodeRedPort !== undefined && typeof node.url === 'string') {
        node.url = node.url.replace(
          /^http:\/\/127\.0\.0\.1:1880\//,
          `http://127.0.0.1:${target.nodeRedPort}/`,
        );
      }
      if (node.type === BROKER_TYPE && target.brokerPort !== undefined) {
        node.broker = target.brokerHost ?? '127.0.0.1';
        node.port = String(target.brokerPort);
      }
      flows.push(node);
    }
  });
  return flows;
}

/** `env` (a tab's or a subflow instance's env list) with the values of those of `values`' names it has. */
function withEnv(env, values) {
  return (env ?? []).map((entry) => (entry.name in values ? { ...entry, value: values[entry.name] } : entry));
}

/** Listens on `preferred` when it is free, else on a port the system picks. */
function listenOnFreePort(server, preferred, host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const tryPort = (port) => {
      const onError = (error) => {
        server.removeListener('listening', onListening);
        if (error.code === 'EADDRINUSE' && port !== 0) tryPort(0);
        else reject(error);
      };
      const onListening = () => {
        server.removeListener('error', onError);
        resolve(server.address().port);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, host);
    };
    tryPort(preferred);
  });
}

/** A port that was free a moment ago (Node-RED binds it itself). */
async function freePort(preferred) {
  const probe = net.createServer();
  const port = await listenOnFreePort(probe, preferred);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The simulator with the certificate kept in `stateDir`, so a restart keeps its fingerprint and the
 * demo's Node-RED, which pinned it, still trusts it. `renew` replaces the kept one.
 */
async function startSimulatorOnFreePort(preferred, stateDir, renew = false) {
  const { keptCertificate, startSimulator } = require(path.join(root, 'dist', 'simulator'));
  const kept = await keptCertificate(stateDir, '127.0.0.1', { renew });
  const tls = { key: kept.certificate.key, cert: kept.certificate.cert };
  try {
    return { simulator: await startSimulator({ port: preferred, tls }), kept };
  } catch (error) {
    if (error?.code !== 'EADDRINUSE') throw error;
    return { simulator: await startSimulator({ port: 0, tls }), kept };
  }
}

async function startBroker(preferred) {
  const { Aedes } = require('aedes');
  const broker = await Aedes.createBroker();
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  const port = await listenOnFreePort(server, preferred);
  // server.close waits for every connection to end, and a client such as `npx mqtt sub` never ends its
  // own: the broker disconnects its clients first, and any socket still open (one that never sent
  // CONNECT) is destroyed, so the close cannot hang.
  const close = async () => {
    const closed = new Promise((resolve) => server.close(() => resolve()));
    await new Promise((resolve) => broker.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, close };
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error.code === 'EPERM';
  }
}

/**
 * Takes `dir` for this process with a lock file holding its pid, so two `npm start` runs never share a
 * user directory (and so flows files). A lock whose process has gone is taken over. Returns the pid of
 * the run holding it when it is taken.
 */
function lockUserDir(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return { locked: true, release: () => fs.rmSync(lock, { force: true }) };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        return { locked: false, holder };
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}: its lock file ${lock} keeps coming back`);
}

/**
 * The demo's user directory: `.node-red-demo/`, or `.node-red-demo-2/` and so on while other `npm start`
 * runs hold the earlier ones. `explicit` (from `--user-dir`) must be free.
 */
function claimUserDir(baseDir = root, explicit = undefined) {
  const candidates = explicit
    ? [path.resolve(explicit)]
    : Array.from({ length: MAX_DEMO_DIRS }, (_, index) =>
        path.join(baseDir, index === 0 ? DEMO_DIR_NAME : `${DEMO_DIR_NAME}-${index + 1}`),
      );
  const busy = [];
  for (const dir of candidates) {
    const claim = lockUserDir(dir);
    if (claim.locked) return { dir, busy, release: claim.release };
    busy.push({ dir, holder: claim.holder });
  }
  const list = busy.map(({ dir, holder }) => `  ${dir} (npm start, pid ${holder})`).join('\n');
  const error = new Error(
    `Every demo user directory is in use by another npm start:\n${list}\n` +
      'Stop one of them with Ctrl-C in its terminal (or kill <pid>), then run npm start again.',
  );
  error.code = 'DEMO_DIRS_BUSY';
  throw error;
}

/** Credentials in the shape of Node-RED's flows_cred.json: AES-256-CTR under the SHA-256 of the secret. */
function encryptedCredentials(credentials, secret) {
  const key = crypto.createHash('sha256').update(secret).digest();
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv('aes-256-ctr', key, iv);
  const body = cipher.update(JSON.stringify(credentials), 'utf8', 'base64') + cipher.final('base64');
  return { $: iv.toString('hex') + body };
}

function writeUserDir(userDir, settings, flows) {
  fs.mkdirSync(userDir, { recursive: true });
  // A demo directory from before the demo had a credential secret holds a key Node-RED made up; Node-RED
  // would try to decrypt the fresh credentials below with it.
  const runtimeConfig = path.join(userDir, '.config.runtime.json');
  if (fs.existsSync(runtimeConfig)) {
    const { _credentialSecret, ...rest } = JSON.parse(fs.readFileSync(runtimeConfig, 'utf8'));
    if (_credentialSecret !== undefined)
      fs.writeFileSync(runtimeConfig, `${JSON.stringify(rest, null, 4)}\n`);
  }
  // Fresh flows each start; stale credentials would belong to the previous ones. An empty set, encrypted
  // as Node-RED does it, rather than no file, which Node-RED warns about ("Encrypted credentials not found").
  fs.writeFileSync(
    path.join(userDir, 'flows_cred.json'),
    `${JSON.stringify(encryptedCredentials({}, settings.credentialSecret))}\n`,
  );
  fs.writeFileSync(path.join(userDir, 'flows.json'), `${JSON.stringify(flows, null, 2)}\n`);
  const settingsFile = path.join(userDir, 'settings.js');
  fs.writeFileSync(settingsFile, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  return settingsFile;
}

function waitForHttp(url, deadlineMs, isStopped) {
  const deadline = Date.now() + deadlineMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (isStopped()) return reject(new Error('Node-RED exited before it was ready'));
      const request = http.get(url, (response) => {
        response.resume();
        if (response.statusCode === 200) resolve();
        else retry();
      });
      request.on('error', retry);
    };
    const retry = () => {
      if (Date.now() > deadline) reject(new Error(`${url} did not answer within ${deadlineMs / 1000} s`));
      else setTimeout(attempt, 250);
    };
    attempt();
  });
}

/** Inside the project: relative to it, as the README names the folders; elsewhere: in full. */
function shownPath(file) {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function userDirArgument(argv) {
  const index = argv.indexOf('--user-dir');
  if (index === -1) return undefined;
  const dir = argv[index + 1];
  if (!dir || dir.startsWith('--')) throw new Error('--user-dir needs a directory');
  return dir;
}

/**
 * How long Node-RED gets to stop its flows after SIGINT before it is killed, and how often this script
 * checks that the process that started it is still there.
 */
const NODE_RED_STOP_MS = 10000;
const PARENT_CHECK_MS = 500;

async function main() {
  const claim = claimUserDir(root, userDirArgument(process.argv.slice(2)));
  const userDir = claim.dir;
  // Also on a crash: a lock left behind is taken over by the next run anyway, as its pid is gone.
  process.on('exit', claim.release);

  // Everything started so far, stopped last-first. Whatever starts after the stop began is not started
  // (each step below checks `stopping`) or dies with this process when the stop ends in process.exit.
  const stoppers = [];
  let stopping = false;
  let nodeRed;
  const stopAll = async () => {
    while (stoppers.length > 0) {
      try {
        await stoppers.pop()();
      } catch (error) {
        console.error(`while stopping: ${error.message}`);
      }
    }
  };
  const shutdown = async (reason, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${reason}: stopping Node-RED, the MQTT broker and the simulator...`);
    await stopAll();
    console.log('Stopped.');
    // Not waiting for the event loop to drain: a socket a browser keeps alive must not keep the demo up.
    process.exit(exitCode);
  };
  const onSignal = (signal) => {
    if (!stopping) return void shutdown(signal === 'SIGINT' ? 'Ctrl-C' : signal);
    // A second signal while stopping: the user wants out now.
    nodeRed?.kill('SIGKILL');
    process.exit(1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  // Run without `exec` (node scripts/start.js from another script or shell), a SIGTERM sent to npm
  // kills the shell in between and never reaches this script: being left without the parent that
  // started it is then the cue to stop.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown('npm start was stopped');
  }, PARENT_CHECK_MS).unref();

  for (const { dir, holder } of claim.busy) {
    console.log(`${shownPath(dir)}/ is in use by another npm start (pid ${holder}).`);
  }
  if (claim.busy.length > 0) console.log(`This run uses ${shownPath(userDir)}/.`);
  if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) {
    console.log('dist/ is missing: building first (node scripts/build.js)');
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { stdio: 'inherit' });
  }

  const renewCertificate = process.argv.slice(2).includes('--new-certificate');
  const { simulator, kept } = await startSimulatorOnFreePort(
    8443,
    path.join(userDir, SIMULATOR_STATE_DIR),
    renewCertificate,
  );
  stoppers.push(() => simulator.close());
  if (stopping) return;
  const broker = await startBroker(1883);
  stoppers.push(() => broker.close());
  if (stopping) return;
  const uiPort = await freePort(1880);
  if (stopping) return;

  const flows = buildDemoFlows(loadExamples(), {
    devicePort: simulator.port,
    brokerPort: broker.port,
    nodeRedPort: uiPort,
  });
  const settingsFile = writeUserDir(
    userDir,
    withOfflineSettings({
      uiHost: '127.0.0.1',
      uiPort,
      flowFile: 'flows.json',
      credentialSecret: DEMO_CREDENTIAL_SECRET,
      nodesDir: [root],
      functionExternalModules: false,
      logging: { console: { level: 'info', metrics: false, audit: false } },
    }),
    flows,
  );

  nodeRed = spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'node-red', 'red.js'), '-u', userDir, '-s', settingsFile],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  let nodeRedExited = false;
  const nodeRedExit = new Promise((resolve) => {
    nodeRed.on('exit', (code, signal) => {
      nodeRedExited = true;
      resolve({ code, signal });
    });
  });
  stoppers.push(async () => {
    if (nodeRedExited) return;
    nodeRed.kill('SIGINT');
    const timer = setTimeout(() => nodeRed.kill('SIGKILL'), NODE_RED_STOP_MS);
    await nodeRedExit;
    clearTimeout(timer);
  });
  nodeRedExit.then(({ code, signal }) => {
    if (!stopping) void shutdown(`Node-RED exited (${signal ?? `code ${code}`})`, code ?? 1);
  });

  try {
    await waitForHttp(`http://127.0.0.1:${uiPort}/`, 60000, () => nodeRedExited || stopping);
  } catch (error) {
    if (!stopping) {
      console.error(error.message);
      await shutdown('Startup failed', 1);
    }
    return;
  }
  console.log(
    [
      '',
      'Conference audio demo is running:',
      `  Node-RED editor    http://127.0.0.1:${uiPort}/   (one tab per example flow)`,
      `  Zones as JSON      http://127.0.0.1:${uiPort}/zones   and the map: /zones.svg`,
      `  Live room view     http://127.0.0.1:${uiPort}/dashboard/room   (Dashboard 2.0: zones, talker, active zone)`,
      `  Rooms              http://127.0.0.1:${uiPort}/dashboard/rooms   (example 9: three rooms from one template, each room's status; MQTT building-1/#)`,
      `  Room control panel http://127.0.0.1:${uiPort}/dashboard/panel   (Dashboard 2.0: mute, volume, profile, calibrate, LEDs)`,
      `  MQTT broker        mqtt://127.0.0.1:${broker.port}   (watch it: npx mqtt sub -h 127.0.0.1 -p ${broker.port} -t 'rooms/#' -v)`,
      `  Mute over MQTT     npx mqtt pub -h 127.0.0.1 -p ${broker.port} -t rooms/demo-room/set/microphoneMute -m toggle`,
      `  Home Assistant     point its MQTT integration at the broker (example 12); its configs: npx mqtt sub -h 127.0.0.1 -p ${broker.port} -t 'homeassistant/#' -v`,
      `  Device simulator   ${simulator.url}   (account general, blank password)`,
      `                     certificate SHA-256 ${simulator.fingerprint256}`,
      `                     ${kept.origin === 'kept' ? 'kept' : 'new, saved'} in ${shownPath(path.dirname(kept.certificateFile))}/ (npm start -- --new-certificate makes a new one)`,
      `  Change the zones   curl -k -X PUT ${simulator.url}/_simulator/zones -H 'content-type: application/json' -d '[]'`,
      `  Place the talker   curl -k -X PUT ${simulator.url}/_simulator/talker -d '{"x":0,"y":1800}'   ({"mode":"walk"} walks again)`,
      `The flows are written fresh at each start (${shownPath(path.join(userDir, 'flows.json'))}): export what you want to keep.`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((error) => {
    // A broken kept certificate is the user's to replace, not a crash: say how.
    if (error?.code === 'SIMULATOR_CERTIFICATE_STORE') {
      console.error(error.message.replace('--new-certificate', 'npm start -- --new-certificate'));
    } else console.error(error);
    process.exit(1);
  });
}

module.exports = { buildDemoFlows, claimUserDir, loadExamples, listenOnFreePort };
