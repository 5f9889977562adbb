/**
 * The short status line of the state node, such as "mic muted · vol 14 · Workshop": the microphone, the
 * volume and the active profile, then anything that needs attention.
 */
import { activeProfile } from './profiles';
import type { StateGroupName, StateGroups } from './state-groups';

const SEPARATOR = ' · ';

/** The words of the summary: a node passes its catalogue's, in the runtime's language. */
export interface SummaryWords {
  micMuted: string;
  micOn: string;
  /** `volume` is the device's own number (no unit: its range depends on the firmware). */
  volume(volume: number): string;
  calibrating: string;
  barUnplugged: string;
}

export const ENGLISH_SUMMARY_WORDS: SummaryWords = {
  micMuted: 'mic muted',
  micOn: 'mic on',
  volume: (volume) => `vol ${volume}`,
  calibrating: 'calibrating',
  barUnplugged: 'bar unplugged',
};

/** The groups the summary is made of: a state node follows them whichever groups it sends. */
export const SUMMARY_GROUPS: readonly StateGroupName[] = ['audio', 'hardware', 'status', 'profiles'];

export function stateSummary(groups: StateGroups, words: SummaryWords = ENGLISH_SUMMARY_WORDS): string {
  const parts: string[] = [];
  const mute = groups.audio?.microphoneMute;
  if (typeof mute === 'boolean') parts.push(mute ? words.micMuted : words.micOn);
  const volume = groups.audio?.speakerVolume;
  if (typeof volume === 'number') parts.push(words.volume(volume));
  const profile = activeProfile(groups.profiles);
  if (profile !== undefined) parts.push(profile.name);
  if (groups.status?.calibrating === true) parts.push(words.calibrating);
  const deviceStatus = groups.hardware?.deviceStatus;
  if (deviceStatus === 'CableUnplugged') parts.push(words.barUnplugged);
  // Any other state is the device's own word, shown as it sent it.
  else if (typeof deviceStatus === 'string' && deviceStatus !== 'Ok') parts.push(deviceStatus);
  return parts.join(SEPARATOR);
}
