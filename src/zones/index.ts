export {
  type ActiveZoneChange,
  type ActiveZoneOptions,
  type ActiveZoneTiming,
  ActiveZoneTracker,
  ANY_ZONE_TYPE,
  DEFAULT_ACTIVE_ZONE_TIMING,
  hasZoneType,
  MIN_RELEASE_MS,
  READING_INTERVAL_MS,
  type TimedReading,
  zoneTypesOf,
} from './active-zone';
export { CAMERA_INPUT_FIELD, type CameraInput, readCameraInputs, withCameraInputs } from './camera-inputs';
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
export { escapeXml, renderZoneMap, ZONE_MAP_WORDS, type ZoneMapOptions, type ZoneMapWords } from './map';
export { parseLayoutResponse, parseZoneList, parseZonesResponse } from './parse';
export { readRoomZones, type ZonesEndpointMemory } from './room-zones';
export {
  isSilent,
  type LocationSummary,
  readSoundLocation,
  type SoundLocation,
  summariseLocation,
} from './sound-location';
export type * from './types';
export { MAX_ZONES, validateZones } from './validate';
export { isZonesChange, zonesFromChange } from './zone-changes';
