#!/usr/bin/env node
// `npm start`: a complete demo on one machine with no device and no outside
// service. Starts the device simulator, an MQTT broker (aedes) and Node-RED
// with every example flow deployed (one tab each), pointed at both.
// Ctrl-C stops all three.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const DEVICE_TYPE = 'conference-audio-device';
const BROKER_TYPE = 'mqtt-broker';

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
    const tabId = example.nodes.find((node) => node.z)?.z ?? `demo-tab-${index + 1}`;
    flows.push({ id: tabId, type: 'tab', label: example.title, disabled: false, info: '' });
    for (const original of example.nodes) {
      const node = { ...original };
      if (node.z === undefined) {
        if (seenConfig.has(node.id)) continue;
        seenConfig.add(node.id);
      } else {
        node.z = tabId;
      }
      if (node.type === DEVICE_TYPE && target.devicePort !== undefined) {
        node.host = target.deviceHost ?? '127.0.0.1';
        node.port = target.devicePort;
        if (target.inlineCredentials) node.credentials = { password: target.devicePassword ?? '' };
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

async function startSimulatorOnFreePort(preferred) {
  const { startSimulator } = require(path.join(root, 'dist', 'simulator'));
  try {
    return await startSimulator({ port: preferred });
  } catch (error) {
    if (error?.code !== 'EADDRINUSE') throw error;
    return startSimulator({ port: 0 });
  }
}

async function startBroker(preferred) {
  const { Aedes } = require('aedes');
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle);
  const port = await listenOnFreePort(server, preferred);
  const close = async () => {
    await new Promise((resolve) => server.close(() => resolve()));
    await new Promise((resolve) => broker.close(() => resolve()));
  };
  return { port, close };
}

function writeUserDir(userDir, settings, flows) {
  fs.mkdirSync(userDir, { recursive: true });
  // Fresh flows each start; stale credentials would belong to the previous ones.
  fs.rmSync(path.join(userDir, 'flows_cred.json'), { force: true });
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

async function main() {
  if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) {
    console.log('dist/ is missing: building first (node scripts/build.js)');
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { stdio: 'inherit' });
  }
  const stoppers = [];
  let stopping = false;
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`while stopping: ${error.message}`);
      }
    }
  };

  const simulator = await startSimulatorOnFreePort(8443);
  stoppers.push(() => simulator.close());
  const broker = await startBroker(1883);
  stoppers.push(() => broker.close());
  const uiPort = await freePort(1880);

  const userDir = path.join(root, '.node-red-demo');
  const flows = buildDemoFlows(loadExamples(), {
    devicePort: simulator.port,
    brokerPort: broker.port,
  });
  const settingsFile = writeUserDir(
    userDir,
    {
      uiHost: '127.0.0.1',
      uiPort,
      flowFile: 'flows.json',
      nodesDir: [root],
      functionExternalModules: false,
      logging: { console: { level: 'info', metrics: false, audit: false } },
      editorTheme: { tours: false },
    },
    flows,
  );

  const nodeRed = spawn(
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
    const timer = setTimeout(() => nodeRed.kill('SIGKILL'), 10000);
    await nodeRedExit;
    clearTimeout(timer);
  });

  const shutdown = async (reason) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${reason}: stopping Node-RED, the MQTT broker and the simulator...`);
    await stopAll();
    console.log('Stopped.');
  };
  process.on('SIGINT', () => void shutdown('Ctrl-C'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  nodeRedExit.then(({ code, signal }) => {
    if (stopping) return;
    process.exitCode = code ?? 1;
    void shutdown(`Node-RED exited (${signal ?? `code ${code}`})`);
  });

  try {
    await waitForHttp(`http://127.0.0.1:${uiPort}/`, 60000, () => nodeRedExited);
  } catch (error) {
    if (!stopping) {
      console.error(error.message);
      process.exitCode = 1;
      await shutdown('Startup failed');
    }
    return;
  }
  console.log(
    [
      '',
      'Conference audio demo is running:',
      `  Node-RED editor    http://127.0.0.1:${uiPort}/   (one tab per example flow)`,
      `  Zones as JSON      http://127.0.0.1:${uiPort}/zones   and the map: /zones.svg`,
      `  MQTT broker        mqtt://127.0.0.1:${broker.port}   (e.g. mosquitto_sub -p ${broker.port} -t 'rooms/#' -v)`,
      `  Device simulator   ${simulator.url}   (account general, blank password)`,
      `                     certificate SHA-256 ${simulator.fingerprint256}`,
      `  Change the zones   curl -k -X PUT ${simulator.url}/_simulator/zones -H 'content-type: application/json' -d '[]'`,
      'The flows are written fresh at each start (.node-red-demo/flows.json): export what you want to keep.',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { buildDemoFlows, loadExamples, listenOnFreePort };
