/**
 * Home Assistant MQTT discovery for one device, without Node-RED and without a broker connection: the
 * entities a device has, their configs and states as MQTT messages, and commands checked into control
 * actions. The `conference-audio-homeassistant` node is built on these.
 */
export { type BridgeOptions, DiscoveryBridge, leftoverRemovals, type MqttMessage } from './bridge';
export { type CommandRun, commandedEntity, isDeviceTopic, parseCommand, payloadText } from './commands';
export {
  type BridgeTopics,
  bridgeAvailabilityTopic,
  commandTopic,
  configTopic,
  type DeviceIdentity,
  deviceAvailabilityTopic,
  homeAssistantStatusTopic,
  OFFLINE,
  ONLINE,
  type OriginInfo,
  stateTopic,
} from './discovery';
export {
  type DeviceFacts,
  deviceEntities,
  type Entity,
  PLATFORMS,
  type Platform,
  UNKNOWN_STATE,
} from './entities';
export { displayName, entitySlug, isSafeTopic, safeId } from './ids';
export { stepVolumeTo } from './volume';
