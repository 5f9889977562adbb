import type { NodeAPI, NodeDef, NodeMessageInFlow } from 'node-red';
import { validateApiPath } from '../../api';
import { AUTH_SEGMENT, STREAMING_PATHS } from '../../api/protocol';
import { answerEachInput } from '../glue/answer-input';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorLocaliser, invalidInput, toNodeError } from '../glue/errors';
import { METHODS, METHODS_WITH_BODY, REQUEST_DEFAULTS, readMethod, TYPE } from './definition';

interface RequestDef extends NodeDef {
  device?: string;
  method?: string;
  path?: string;
}

/**
 * Response headers never copied into a message: secrets, and what describes the device's connection and
 * framing rather than the answer (hop-by-hop, length and compression, which the client has undone). An
 * http response node sends msg.headers on: a copied `transfer-encoding: chunked` or `content-encoding:
 * gzip` beside Node-RED's own framing made an answer no browser can read.
 */
const HIDDEN_HEADERS = new Set([
  'set-cookie',
  'authorization',
  'www-authenticate',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'content-encoding',
]);

/**
 * Whether the path is under /api/v1/auth as the device's web server may read it: percent-escapes decoded,
 * `;parameters` of the segment dropped (some servers ignore them), any case. Called on a validated path.
 */
function isAuthPath(path: string): boolean {
  const [pathname = ''] = path.split('?', 1);
  const segment = pathname.split('/')[3] ?? '';
  const [name = ''] = decodeURIComponent(segment).split(';', 1);
  return name.toLowerCase() === AUTH_SEGMENT;
}

/** Whether a validated path names a streaming endpoint, read as leniently as `isAuthPath` reads its path. */
function isStreamingPath(path: string): boolean {
  const [pathname = ''] = path.split('?', 1);
  const segments = pathname
    .split('/')
    .map((segment) => decodeURIComponent(segment).split(';', 1)[0] ?? '')
    .filter((segment, index) => index === 0 || segment !== '');
  return STREAMING_PATHS.includes(segments.join('/').toLowerCase());
}

/** The JavaScript type, in words that read the same in every language. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Buffer.isBuffer(value)) return 'Buffer';
  return typeof value;
}

function visibleHeaders(headers: Record<string, string>): Record<string, string> {
  const visible: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HIDDEN_HEADERS.has(name.toLowerCase())) visible[name] = value;
  }
  return visible;
}

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);
  const nodeError = (error: unknown) => toNodeError(error, localise);

  function RequestNode(this: DeviceUser, def: RequestDef) {
    RED.nodes.createNode(this, def);
    const configuredMethod = readMethod(def.method) ?? REQUEST_DEFAULTS.method;
    const configuredPath =
      typeof def.path === 'string' && def.path.trim() !== '' ? def.path.trim() : REQUEST_DEFAULTS.path;
    const device = useDevice(RED, this, def.device, t('status.noDevice'));

    function prepare(msg: NodeMessageInFlow & Record<string, unknown>) {
      let method = configuredMethod;
      if (msg.method !== undefined && msg.method !== '') {
        const fromMessage = readMethod(msg.method);
        if (!fromMessage) throw invalidInput(t('errors.method', { methods: METHODS.join(', ') }));
        method = fromMessage;
      }
      if (msg.path !== undefined && typeof msg.path !== 'string') {
        throw invalidInput(t('errors.pathType', { type: typeOf(msg.path) }));
      }
      const rawPath =
        typeof msg.path === 'string' && msg.path.trim() !== '' ? msg.path.trim() : configuredPath;
      const path = validateApiPath(rawPath);
      // The login answer carries the token: it must never become a message.
      if (isAuthPath(path)) throw invalidInput(t('errors.authPath'));
      // At once, not after the timeout: the answer of a stream never ends.
      if (isStreamingPath(path))
        throw invalidInput(t('errors.streamPath', { path: path.split('?', 1)[0] ?? path }));
      const body = METHODS_WITH_BODY.has(method) && msg.payload !== undefined ? msg.payload : undefined;
      return { method, path, body };
    }

    answerEachInput(this, {
      start: (msg: NodeMessageInFlow & Record<string, unknown>) => {
        if (!device) throw noDeviceError();
        const request = prepare(msg);
        return device.connection().client.request(request.method, request.path, request.body);
      },
      answer: (msg, response) => {
        msg.payload = response.body;
        msg.statusCode = response.statusCode;
        msg.headers = visibleHeaders(response.headers);
      },
      failure: nodeError,
    });
  }

  RED.nodes.registerType('conference-audio-request', RequestNode);
};
