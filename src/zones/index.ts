export { diffZones, hasChanges } from './diff';
export {
  boundsIntersect,
  containsPoint,
  isPoint,
  withGeometry,
  zoneBounds,
  zoneGeometry,
  zonesContaining,
} from './geometry';
export { escapeXml, renderZoneMap, type ZoneMapOptions } from './map';
export { parseLayoutResponse, parseZoneList, parseZonesResponse } from './parse';
export type * from './types';
export { MAX_ZONES, validateZones } from './validate';
