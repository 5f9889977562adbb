import type { NodeAPI, NodeDef, NodeMessage, NodeMessageInFlow } from 'node-red';
import { copyJson } from '../../api/json-copy';
import { isDeviceError } from '../../errors';
import { parseZoneList, withGeometry, zonesContaining } from '../../zones';
import type { ZoneWithGeometry } from '../../zones/types';
import { runtimeCatalogue } from '../glue/catalogue';
import { type DeviceUser, noDeviceError, useDevice } from '../glue/device';
import { errorLocaliser, invalidInput, toNodeError } from '../glue/errors';
import { readMaxAge, readProperty, TYPE } from './definition';
import { readPoint } from './point';

interface LookupDef extends NodeDef {
  device?: string;
  property?: string;
  maxAge?: number | string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Buffer.isBuffer(value)) return 'a Buffer';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

type SendFn = (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void;

export = (RED: NodeAPI) => {
  const t = runtimeCatalogue(RED, TYPE);
  const localise = errorLocaliser(RED);
  const nodeError = (error: unknown) => toNodeError(error, localise);

  /** Zones handed in with the message, read as tolerantly as the device's: a bad one is INVALID_INPUT. */
  function zonesFromMessage(value: unknown): ZoneWithGeometry[] {
    if (!Array.isArray(value)) {
      // Not ignored: falling back to the device's zones would answer a different question.
      throw invalidInput(
        t('errors.badZones', { reason: `expected an array of zones, got ${describe(value)}` }),
      );
    }
    try {
      return parseZoneList(value, 'msg.zones').zones.map((zone) => withGeometry(zone));
    } catch (error) {
      throw invalidInput(
        t('errors.badZones', { reason: isDeviceError(error) ? error.message : String(error) }),
      );
    }
  }

  function LookupNode(this: DeviceUser, def: LookupDef) {
    RED.nodes.createNode(this, def);
    const property = readProperty(def.property);
    const maxAge = readMaxAge(def.maxAge);
    const maxAgeMs = (maxAge.ok ? maxAge.value : maxAge.fallback) * 1000;
    // Zones from messages only: a device is optional, so no "no device" status.
    const device = def.device ? useDevice(RED, this, def.device, t('status.noDevice')) : undefined;
    /** The device's zones no older than maxAge, from their owner (with geometry derived once per read). */
    async function deviceZones(): Promise<readonly ZoneWithGeometry[]> {
      if (!device) throw noDeviceError();
      return (await device.connection().zones.fresh(maxAgeMs)).geometry;
    }

    this.on('input', (msg: NodeMessageInFlow, send: SendFn, done: (err?: Error) => void) => {
      const message = msg as NodeMessageInFlow & Record<string, unknown>;
      let value: unknown;
      try {
        value = RED.util.getMessageProperty(message, property);
      } catch {
        value = undefined;
      }
      const reading = readPoint(value);
      if (!reading.ok) {
        done(
          nodeError(
            invalidInput(t('errors.badPoint', { property: `msg.${property}`, reason: reading.reason })),
          ),
        );
        return;
      }
      const point = reading.point;
      const fromDevice = message.zones === undefined;
      let zonesPromise: Promise<readonly ZoneWithGeometry[]>;
      try {
        zonesPromise = fromDevice ? deviceZones() : Promise.resolve(zonesFromMessage(message.zones));
      } catch (error) {
        done(nodeError(error));
        return;
      }
      zonesPromise.then(
        (zones) => {
          const found = zonesContaining(zones, point);
          // The device's zones are shared by all its nodes: a flow that edits what it receives gets a copy.
          const containing = fromDevice ? copyJson(found) : found;
          if (containing.length === 0) {
            send([null, message]);
          } else {
            message.payload = containing;
            message.zone = containing[0];
            message.point = point;
            send([message, null]);
          }
          done();
        },
        (error: unknown) => done(nodeError(error)),
      );
    });
  }

  RED.nodes.registerType('conference-audio-zone-lookup', LookupNode);
};
