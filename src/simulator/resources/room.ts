import { isDeepStrictEqual } from 'node:util';
import { type DeviceContext, holdsZones, onZoneModel } from '../device';
import { answerWrite, type Exchange, type Routes, sendError, sendJsonAnswer, sendProblem } from '../exchange';
import { atLeast } from '../firmware';
import { readJsonBody } from '../request-body';
import type { LayoutSpelling } from '../types';
import { cameraInputMap, isRecord, SAMPLE_ROOM, spellZones, zoneInputMapKey } from '../zones';
import {
  type CameraSwitcherDefaults,
  type LayoutWrite,
  parseLayoutPatch,
  SOUND_LOCATION_FLOOR,
  type ZoneInputMapEntry,
} from './layout-patch';

export const LAYOUT_EVENT = '/api/v1/room/layout';

/**
 * The room: its zones (`/api/v1/room/zones` on classic firmware) and its layout (`/api/v1/room/layout`):
 * the zones again, the zone-to-camera map, the camera switching defaults and the sound location algorithm.
 */
export class RoomLayout {
  zones: unknown;
  spelling: LayoutSpelling;
  zoneExtras: Record<string, unknown> | null;
  #defaults: CameraSwitcherDefaults = {
    defaultCameraInputPort: 'HDMI',
    zonesTriggerWaitTime: 1000,
    switchToDefaultWaitTime: 5000,
  };
  #algorithm = 'BP';
  /** Set by a write; until then firmware that keeps the zones in the layout derives the map from them. */
  #zoneInputMap: ZoneInputMapEntry[] | undefined;

  constructor(
    private readonly device: DeviceContext,
    setup: { zones: unknown; spelling: LayoutSpelling; zoneExtras: Record<string, unknown> | undefined },
  ) {
    this.zones = setup.zones;
    this.spelling = setup.spelling;
    this.zoneExtras = setup.zoneExtras ?? null;
  }

  get cameraSwitcherDefaults(): CameraSwitcherDefaults {
    return { ...this.#defaults };
  }

  routes(): Routes {
    return {
      '/api/v1/room/zones': { minimumRole: 'general', methods: { GET: (exchange) => this.#zones(exchange) } },
      '/api/v1/room/layout': {
        minimumRole: 'general',
        methods: {
          GET: (exchange) =>
            onZoneModel(this.device, exchange, () => sendJsonAnswer(exchange, 200, this.body())),
          PATCH: (exchange) => onZoneModel(this.device, exchange, () => this.#patch(exchange)),
        },
      },
    };
  }

  body(): Record<string, unknown> {
    const spelling = this.device.firmware === 'layout' ? this.spelling : 'spec';
    const extras = this.zoneExtras;
    const zones = spellZones(this.zones, spelling);
    const map =
      this.#zoneInputMap !== undefined
        ? { [zoneInputMapKey(spelling)]: this.#zoneInputMap.map((entry) => ({ ...entry })) }
        : this.device.firmware === 'layout'
          ? cameraInputMap(this.zones, spelling)
          : {};
    return {
      uiMeasurementSystem: 'METRIC',
      roomDimensionsVerified: true,
      audioComponentPositionsVerified: true,
      roomSize: {
        width: SAMPLE_ROOM.maxX - SAMPLE_ROOM.minX,
        depth: SAMPLE_ROOM.maxY - SAMPLE_ROOM.minY,
        height: SAMPLE_ROOM.height,
      },
      roomBounds: {
        point1: { x: SAMPLE_ROOM.minX, y: SAMPLE_ROOM.minY },
        point2: { x: SAMPLE_ROOM.maxX, y: SAMPLE_ROOM.maxY },
      },
      devices: [{ model: this.device.model, role: 'primary', position: { x: 0, y: 0, z: 2700 } }],
      zones:
        extras === null || !Array.isArray(zones)
          ? zones
          : zones.map((zone) => (isRecord(zone) ? { ...zone, ...extras } : zone)),
      ...map,
      cameraSwitcherDefaults: { ...this.#defaults },
      ...(atLeast(this.device.firmwareVersion, SOUND_LOCATION_FLOOR)
        ? { soundLocationAlgorithm: this.#algorithm }
        : {}),
    };
  }

  /** The layout event, with the whole layout, as the device sends it after a change. */
  announce(): void {
    if (holdsZones(this.device.model)) this.device.announce(LAYOUT_EVENT, this.body());
  }

  #zones(exchange: Exchange): void {
    onZoneModel(this.device, exchange, () => {
      if (this.device.firmware === 'layout') sendError(exchange, 404, ['Not found']);
      else sendJsonAnswer(exchange, 200, { zones: this.zones });
    });
  }

  async #patch(exchange: Exchange): Promise<void> {
    const body = await readJsonBody(exchange);
    if (body === undefined) return;
    const result = parseLayoutPatch(body, this.device.firmwareVersion);
    if (!result.ok) {
      if (result.shape === 'errors') sendError(exchange, 400, [result.message]);
      else sendProblem(exchange, 400, [result.message]);
      return;
    }
    const before = this.body();
    this.#apply(result.write);
    answerWrite(exchange, 200, body);
    if (!isDeepStrictEqual(before, this.body())) this.announce();
  }

  #apply(write: LayoutWrite): void {
    if (write.cameraSwitcherDefaults !== undefined) this.#defaults = write.cameraSwitcherDefaults;
    if (write.soundLocationAlgorithm !== undefined) this.#algorithm = write.soundLocationAlgorithm;
    if (write.zoneInputMap !== undefined) this.#zoneInputMap = write.zoneInputMap;
    if (write.zones !== undefined) this.zones = write.zones;
  }
}
