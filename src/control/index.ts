/**
 * The control and state model: pure functions, no I/O of their own, no Node-RED. The control
 * and state nodes (and the device connection's state cache) are built on these.
 */
export {
  ACTION_GROUPS,
  ACTION_VALUES,
  CONTROL_ACTIONS,
  type ControlActionName,
  type ControlCommand,
  groupsActionUses,
  isControlAction,
  type MuteAction,
  parseControlAction,
  SOUND_LOCATION_ALGORITHMS,
  type SoundLocationAlgorithm,
  TOGGLE,
  VOLUME_STEPS,
  type VolumeDirection,
} from './actions';
export {
  AUDIO_FIELD_NAMES,
  AUDIO_FIELDS,
  type AudioField,
  type AudioFieldName,
  type AudioFieldRule,
  describeRule,
  isAudioFieldName,
} from './audio-fields';
export { changedFields } from './changes';
export { controlError } from './errors';
export { applyChangeEvent, type DroppedPart, type EventOutcome, LED_TYPES } from './events';
export { compareFirmware, type FirmwareVersion, formatFirmware, parseFirmwareVersion } from './firmware';
export { groupShapeProblem, groupSizeProblem, MAX_GROUP_BYTES, MAX_GROUP_KEYS } from './group-shapes';
export { activeProfile, findProfile, profileNotFound, type RoomProfile, readProfiles } from './profiles';
export { classifyRefusal, type RefusalContext, refusesResource } from './refusals';
export { type ControlResult, type ControlRunOptions, runControlAction } from './runner';
export { SECRET_FIELDS, withoutSecrets } from './secrets';
export { type CachedGroup, type ControlStateCache, MemoryStateCache } from './state-cache';
export {
  GROUP_RESOURCES,
  type GroupState,
  groupFromBody,
  groupOfResource,
  isStateGroupName,
  RESYNC_GROUPS,
  STATE_GROUPS,
  type StateGroupName,
  type StateGroups,
  switchingFromLayout,
} from './state-groups';
export { ENGLISH_SUMMARY_WORDS, type SummaryWords, stateSummary } from './summary';
export {
  CAMERA_INPUT_PORTS,
  type CameraInputPort,
  mergeSwitchingDefaults,
  SWITCHING_DEFAULTS_KEYS,
  type SwitchingDefaultsKey,
  validateSwitchingDefaults,
} from './switching-defaults';
export { firmwareProblem, validateAudioWrite } from './validate';
