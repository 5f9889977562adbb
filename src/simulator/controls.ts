import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ControlTable, DEVICE_CONTROLS } from './device-controls';
import { parseFault } from './faults';
import { BodyTooLargeError, readBody, sendJson } from './http';
import type { SimulatorControls } from './types';
import { isRecord } from './zones';

/** A bad control request: answered 400 with this message. */
class ControlError extends Error {}

/** `{"<key>": true | false}` or the bare boolean. */
function flag(body: unknown, key: string): boolean {
  const value = isRecord(body) ? body[key] : body;
  if (typeof value !== 'boolean') throw new ControlError(`body must be {"${key}": true | false}`);
  return value;
}

/** The controls that change the device or the simulator; each answers the new state (`withState`). */
const MUTATIONS: ControlTable = {
  ...DEVICE_CONTROLS,
  '/_simulator/zones': {
    PUT: (simulator, body) => {
      if (Array.isArray(body)) simulator.setZones(body);
      else if (isRecord(body) && 'zones' in body) simulator.setZones(body.zones as unknown[]);
      else throw new ControlError('body must be an array of zones or {"zones": ...}');
    },
  },
  '/_simulator/password': {
    PUT: (simulator, body) => {
      if (!isRecord(body) || (body.account !== 'general' && body.account !== 'admin')) {
        throw new ControlError('account must be general or admin');
      }
      if (typeof body.password !== 'string') throw new ControlError('password must be a string');
      simulator.setPassword(body.account, body.password);
    },
  },
  '/_simulator/reboot': { POST: (simulator) => simulator.reboot() },
  '/_simulator/factory-reset': { POST: (simulator) => simulator.factoryReset() },
  '/_simulator/fault': { PUT: (simulator, body) => simulator.setFault(parseFault(body)) },
  '/_simulator/talker': {
    PUT: (simulator, body) => {
      // {"x": mm, "y": mm, "powerLevel"?: dB} places the talker; {"mode": "walk"} or {"mode": "silent"}.
      if (isRecord(body) && body.mode === 'walk') simulator.walkTalker();
      else if (isRecord(body) && body.mode === 'silent') simulator.silenceTalker();
      else if (isRecord(body) && typeof body.x === 'number' && typeof body.y === 'number') {
        const powerLevel = typeof body.powerLevel === 'number' ? body.powerLevel : undefined;
        try {
          simulator.placeTalker({
            x: body.x,
            y: body.y,
            ...(powerLevel === undefined ? {} : { powerLevel }),
          });
        } catch (error) {
          throw new ControlError((error as Error).message);
        }
      } else
        throw new ControlError(
          'body must be {"x": mm, "y": mm, "powerLevel"?: dB} or {"mode": "walk" | "silent"}',
        );
    },
  },
  '/_simulator/mute': { PUT: (simulator, body) => simulator.setMuted(flag(body, 'muted')) },
  '/_simulator/streams/drop': { POST: (simulator) => simulator.dropStreams() },
  '/_simulator/streams/end': { POST: (simulator) => simulator.endStreams() },
  '/_simulator/streams/stall': {
    PUT: (simulator, body) => simulator.stallStreams(flag(body, 'stalled')),
  },
  '/_simulator/change': {
    POST: (simulator, body) => {
      if (!isRecord(body) || typeof body.event !== 'string') {
        throw new ControlError('body must be {"event": name, "data"?: any}');
      }
      try {
        simulator.emitChange(body.event, body.data ?? {});
      } catch (error) {
        throw new ControlError((error as Error).message);
      }
    },
  },
  '/_simulator/reset-records': { POST: (simulator) => simulator.resetRecords() },
};

/**
 * The simulator's own controls for tests and demos in another process. They need neither client headers nor
 * authorization, are not rate limited, not recorded and not counted.
 */
const CONTROLS: ControlTable = {
  ...withState(MUTATIONS),
  '/_simulator/state': { GET: (simulator) => simulator.getState() },
  '/_simulator/requests': { GET: (simulator) => simulator.requests },
};

/** The controls, each answering the new state after it ran. */
function withState(controls: ControlTable): ControlTable {
  return Object.fromEntries(
    Object.entries(controls).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, handler]) => [
          method,
          (simulator: SimulatorControls, body: unknown) => {
            handler?.(simulator, body);
            return simulator.getState();
          },
        ]),
      ),
    ]),
  );
}

export async function handleControl(
  simulator: SimulatorControls,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<void> {
  const control = Object.hasOwn(CONTROLS, path) ? CONTROLS[path] : undefined;
  if (control === undefined) {
    sendJson(response, 404, { errors: [{ message: 'Not found' }] });
    return;
  }
  const method = request.method ?? '';
  const handler = Object.hasOwn(control, method) ? control[method] : undefined;
  if (handler === undefined) {
    response.setHeader('Allow', Object.keys(control).join(', '));
    sendJson(response, 405, { errors: [{ message: 'Method not allowed' }] });
    return;
  }
  try {
    const body = await readControlBody(request);
    sendJson(response, 200, handler(simulator, body));
  } catch (error) {
    // A setter's TypeError (an OptionError among them) is a bad value from the caller.
    if (error instanceof ControlError || error instanceof TypeError) {
      sendJson(response, 400, { errors: [{ message: error.message }] });
      return;
    }
    throw error;
  }
}

async function readControlBody(request: IncomingMessage): Promise<unknown> {
  let text: string;
  try {
    text = await readBody(request, 1024 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ControlError('body too large');
    throw error;
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ControlError('body is not valid JSON');
  }
}
