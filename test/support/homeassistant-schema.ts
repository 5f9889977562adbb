/**
 * Home Assistant's documented MQTT discovery schema for the platforms the package announces, written
 * from Home Assistant's MQTT integration pages (switch, number, select, button, binary_sensor, sensor),
 * not from the package's code: the keys each platform documents, the ones it requires, and the allowed
 * values of the keys with a fixed set. `checkConfig` lists what a config breaks; empty means it fits.
 */

/** Keys every MQTT entity documents (object_id is left out on purpose: deprecated, then ignored). */
const COMMON_KEYS = [
  'availability',
  'availability_mode',
  'availability_template',
  'availability_topic',
  'default_entity_id',
  'device',
  'enabled_by_default',
  'encoding',
  'entity_category',
  'entity_picture',
  'icon',
  'json_attributes_template',
  'json_attributes_topic',
  'name',
  'origin',
  'payload_available',
  'payload_not_available',
  'platform',
  'qos',
  'unique_id',
];

interface PlatformSchema {
  keys: string[];
  required: string[];
  deviceClasses: string[];
}

export const PLATFORM_SCHEMAS: Record<string, PlatformSchema> = {
  switch: {
    keys: [
      'command_template',
      'command_topic',
      'device_class',
      'optimistic',
      'payload_off',
      'payload_on',
      'retain',
      'state_off',
      'state_on',
      'state_topic',
      'value_template',
    ],
    required: [],
    deviceClasses: ['outlet', 'switch'],
  },
  number: {
    keys: [
      'command_template',
      'command_topic',
      'device_class',
      'max',
      'min',
      'mode',
      'optimistic',
      'payload_reset',
      'retain',
      'state_topic',
      'step',
      'unit_of_measurement',
      'value_template',
    ],
    required: ['command_topic'],
    deviceClasses: [],
  },
  select: {
    keys: [
      'command_template',
      'command_topic',
      'optimistic',
      'options',
      'retain',
      'state_topic',
      'value_template',
    ],
    required: ['command_topic', 'options'],
    deviceClasses: [],
  },
  button: {
    keys: ['command_template', 'command_topic', 'device_class', 'payload_press', 'retain'],
    required: ['command_topic'],
    deviceClasses: ['identify', 'restart', 'update'],
  },
  binary_sensor: {
    keys: [
      'device_class',
      'expire_after',
      'force_update',
      'off_delay',
      'payload_off',
      'payload_on',
      'state_topic',
      'value_template',
    ],
    required: ['state_topic'],
    deviceClasses: [
      'battery',
      'battery_charging',
      'carbon_monoxide',
      'cold',
      'connectivity',
      'door',
      'garage_door',
      'gas',
      'heat',
      'light',
      'lock',
      'moisture',
      'motion',
      'moving',
      'occupancy',
      'opening',
      'plug',
      'power',
      'presence',
      'problem',
      'running',
      'safety',
      'smoke',
      'sound',
      'tamper',
      'update',
      'vibration',
      'window',
    ],
  },
  sensor: {
    keys: [
      'device_class',
      'expire_after',
      'force_update',
      'last_reset_value_template',
      'options',
      'state_class',
      'state_topic',
      'suggested_display_precision',
      'unit_of_measurement',
      'value_template',
    ],
    required: ['state_topic'],
    // Only the classes the package could use are listed with their units below; any other is refused.
    deviceClasses: ['sound_pressure', 'enum', 'timestamp', 'date'],
  },
};

/** Units Home Assistant allows per sensor device class (of those listed above). */
const SENSOR_UNITS: Record<string, string[]> = { sound_pressure: ['dB', 'dBA'] };
const ENTITY_CATEGORIES = ['config', 'diagnostic'];
const STATE_CLASSES = ['measurement', 'measurement_angle', 'total', 'total_increasing'];
const NUMBER_MODES = ['auto', 'box', 'slider'];
const AVAILABILITY_MODES = ['all', 'any', 'latest'];
const DEVICE_KEYS = [
  'configuration_url',
  'connections',
  'hw_version',
  'identifiers',
  'manufacturer',
  'model',
  'model_id',
  'name',
  'serial_number',
  'suggested_area',
  'sw_version',
  'via_device',
];

/** What `config` of `platform` breaks in the documented schema; empty when nothing. */
export function checkConfig(platform: string, config: Record<string, unknown>): string[] {
  const schema = PLATFORM_SCHEMAS[platform];
  if (schema === undefined) return [`unknown platform ${platform}`];
  const problems: string[] = [];
  const known = new Set([...COMMON_KEYS, ...schema.keys]);
  for (const key of Object.keys(config)) if (!known.has(key)) problems.push(`undocumented key ${key}`);
  for (const key of schema.required) if (config[key] === undefined) problems.push(`missing ${key}`);
  const deviceClass = config.device_class;
  if (deviceClass !== undefined && !schema.deviceClasses.includes(String(deviceClass)))
    problems.push(`device_class ${String(deviceClass)} not allowed for ${platform}`);
  if (platform === 'sensor' && deviceClass !== undefined && SENSOR_UNITS[String(deviceClass)] !== undefined) {
    if (!SENSOR_UNITS[String(deviceClass)]?.includes(String(config.unit_of_measurement)))
      problems.push(`unit ${String(config.unit_of_measurement)} not allowed for ${String(deviceClass)}`);
  }
  if (config.entity_category !== undefined && !ENTITY_CATEGORIES.includes(String(config.entity_category)))
    problems.push(`entity_category ${String(config.entity_category)}`);
  if (config.state_class !== undefined && !STATE_CLASSES.includes(String(config.state_class)))
    problems.push(`state_class ${String(config.state_class)}`);
  if (config.mode !== undefined && !NUMBER_MODES.includes(String(config.mode)))
    problems.push(`mode ${String(config.mode)}`);
  if (
    config.availability_mode !== undefined &&
    !AVAILABILITY_MODES.includes(String(config.availability_mode))
  )
    problems.push(`availability_mode ${String(config.availability_mode)}`);
  if (
    platform === 'select' &&
    !(Array.isArray(config.options) && config.options.every((o) => typeof o === 'string'))
  )
    problems.push('options must be a list of strings');
  const device = config.device as Record<string, unknown> | undefined;
  if (device !== undefined) {
    for (const key of Object.keys(device))
      if (!DEVICE_KEYS.includes(key)) problems.push(`undocumented device key ${key}`);
    if (!Array.isArray(device.identifiers) && !Array.isArray(device.connections))
      problems.push('device without identifiers');
  }
  const origin = config.origin as Record<string, unknown> | undefined;
  if (origin !== undefined && typeof origin.name !== 'string') problems.push('origin without name');
  if (config.unique_id !== undefined && config.device === undefined)
    problems.push('unique_id without device');
  return problems;
}

/** A config's key in full, whether written in full or in Home Assistant's documented abbreviation. */
const ABBREVIATIONS: Record<string, string> = {
  stat_t: 'state_topic',
  cmd_t: 'command_topic',
  uniq_id: 'unique_id',
  avty: 'availability',
  avty_t: 'availability_topic',
  avty_mode: 'availability_mode',
  dev: 'device',
  o: 'origin',
  dev_cla: 'device_class',
  ent_cat: 'entity_category',
  unit_of_meas: 'unit_of_measurement',
  stat_cla: 'state_class',
  val_tpl: 'value_template',
  ops: 'options',
  pl_prs: 'payload_press',
};

/** `config` with every key spelled in full, as a client that reads both spellings would see it. */
export function fullKeys(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [ABBREVIATIONS[key] ?? key, value]));
}
