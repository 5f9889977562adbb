/**
 * http in → device request → http response, the flow that turns a device endpoint into an HTTP endpoint
 * of Node-RED. The request node's msg.headers go on to the http response node, so they must describe the
 * answer, not the device's framing: a device (or a proxy) answering chunked or gzip-compressed once made
 * Node-RED send an answer no client could read. A real Node-RED (the http in node's routes live on its
 * own HTTP server) with the built package from dist/: `npm test` builds before it runs the tests.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import should from 'should';
import type { AnswerEncoding } from '../../src/simulator';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { deployFlows } from '../e2e/node-red';
import { launchNodeRed, type NodeRedProcess } from '../support/node-red-process';
import { probeUntil } from '../support/wait';

const projectRoot = path.resolve(__dirname, '..', '..');
const AUDIO_PATH = '/room/audio';

describe('reliability: a device endpoint served through http in and http response', function () {
  this.timeout(60_000);
  let simulator: DeviceSimulator;
  let nodeRed: NodeRedProcess;
  let userDir: string;
  let expectedAudio: unknown;

  before(async () => {
    if (!existsSync(path.join(projectRoot, 'dist', 'nodes', 'conference-audio-request', 'runtime.js'))) {
      throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    }
    simulator = await startSimulator({ port: 0 });
    userDir = mkdtempSync(path.join(tmpdir(), 'ca-http-passthrough-'));
    writeFileSync(path.join(userDir, 'flows.json'), '[]\n');
    nodeRed = await launchNodeRed({
      redJs: require.resolve('node-red/red.js'),
      userDir,
      settings: { nodesDir: [projectRoot] },
    });
    await deployFlows(nodeRed, [
      { id: 'f1', type: 'tab', label: 'passthrough' },
      {
        id: 'device',
        type: 'conference-audio-device',
        host: '127.0.0.1',
        port: simulator.port,
        account: 'general',
        tls: 'insecure',
        credentials: { password: '' },
      },
      { id: 'in', type: 'http in', z: 'f1', url: AUDIO_PATH, method: 'get', wires: [['req']] },
      {
        id: 'req',
        type: 'conference-audio-request',
        z: 'f1',
        device: 'device',
        method: 'GET',
        path: '/api/v1/audio',
        wires: [['out']],
      },
      { id: 'out', type: 'http response', z: 'f1', statusCode: '', headers: {} },
    ]);
    const plain = await fetchAudio();
    should(plain.status).equal(200);
    expectedAudio = await plain.json();
  });

  after(async () => {
    await nodeRed?.stop();
    await simulator?.close();
    if (userDir !== undefined) rmSync(userDir, { recursive: true, force: true });
  });

  /** The http in route exists once the deploy has started the flow. */
  function fetchAudio(): Promise<Response> {
    return probeUntil('the http in route', async () => {
      const answer = await nodeRed.request(AUDIO_PATH);
      return answer.status === 404 ? undefined : answer;
    });
  }

  for (const encoding of ['chunked', 'gzip'] as AnswerEncoding[]) {
    it(`answers the caller with the device's JSON when the device answers ${encoding}`, async () => {
      simulator.setAnswerEncoding(encoding);
      try {
        const answer = await fetchAudio();
        should(answer.status).equal(200);
        should(await answer.json()).eql(expectedAudio);
        should(answer.headers.get('content-encoding')).be.null();
      } finally {
        simulator.setAnswerEncoding('plain');
      }
    });
  }
});
