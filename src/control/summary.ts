/**
 * The short status line of the state node, such as "mic muted · vol 14 · Workshop": the microphone, the
 * volume and the active profile, then anything that needs attention.
 */
import { activeProfile } from './profiles';
import type { StateGroups } from './state-groups';

const SEPARATOR = ' · ';

export function stateSummary(groups: StateGroups): string {
  const parts: string[] = [];
  const mute = groups.audio?.microphoneMute;
  if (typeof mute === 'boolean') parts.push(mute ? 'mic muted' : 'mic on');
  const volume = groups.audio?.speakerVolume;
  if (typeof volume === 'number') parts.push(`vol ${volume}`);
  const profile = activeProfile(groups.profiles);
  if (profile !== undefined) parts.push(profile.name);
  if (groups.status?.calibrating === true) parts.push('calibrating');
  const deviceStatus = groups.hardware?.deviceStatus;
  if (deviceStatus === 'CableUnplugged') parts.push('bar unplugged');
  else if (typeof deviceStatus === 'string' && deviceStatus !== 'Ok') parts.push(deviceStatus.toLowerCase());
  return parts.join(SEPARATOR);
}
