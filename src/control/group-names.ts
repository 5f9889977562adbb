/** The names of the device state's groups, in the order they are told. */
export const STATE_GROUPS = [
  'audio',
  'hardware',
  'status',
  'switching',
  'cameraSwitcher',
  'profiles',
  'network',
] as const;

export type StateGroupName = (typeof STATE_GROUPS)[number];
