/** A point in the room's coordinate system, in millimetres (x east, y north). */
export interface Point {
  x: number;
  y: number;
}

/** A zone in the spec's shape (`GET /api/v1/room/zones`). Unknown device fields are kept. */
export interface Zone {
  types: string[];
  geometry: { point1: Point; point2: Point };
  label: string;
  id: string;
  [deviceField: string]: unknown;
}

/** Axis-aligned bounds of a zone, whatever the order of its two corners. */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Derived geometry added beside the device's own fields in node output. */
export interface ZoneGeometry {
  bounds: Bounds;
  width: number;
  height: number;
  centre: Point;
  area: number;
}

export type ZoneWithGeometry = Zone & ZoneGeometry;

export type ZoneWarningCode =
  | 'TOO_MANY_ZONES'
  | 'DUPLICATE_TYPE'
  | 'OVERLAPPING_ZONES'
  | 'DUPLICATE_ID'
  | 'UNKNOWN_TYPE'
  | 'MISSING_FIELD'
  /** A zone left out: its geometry cannot be computed (a device's answer: BAD_RESPONSE; a flow's: INVALID_INPUT). */
  | 'BAD_RESPONSE'
  | 'INVALID_INPUT';

export interface ZoneWarning {
  code: ZoneWarningCode;
  message: string;
  /** Ids of the zones the warning is about, when it is about zones. */
  zoneIds?: string[];
}

/** Which endpoint the zones came from. */
export type ZoneSource = 'zones' | 'layout';

export interface ZoneReadResult {
  zones: Zone[];
  warnings: ZoneWarning[];
  source: ZoneSource;
}

export interface ZoneChange {
  id: string;
  before: Zone;
  after: Zone;
}

export interface ZoneDiff {
  added: Zone[];
  removed: Zone[];
  changed: ZoneChange[];
}
