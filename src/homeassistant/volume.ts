/**
 * A volume level reached in steps: the device has no absolute volume write, only one step up or down,
 * and its step size differs between sources. Steps go towards the target until it is reached, a step
 * would pass it, or the volume stops moving (the end of the range).
 */

/** More steps than any range of the device holds (0 to 100 by 1). */
export const MAX_VOLUME_STEPS = 100;

/**
 * Steps from `current` towards `target`; `step` moves the volume one step and resolves with the volume
 * read back (undefined: unknown, which stops). Resolves with the volume at the end.
 */
export async function stepVolumeTo(
  current: number,
  target: number,
  step: (direction: 'up' | 'down') => Promise<number | undefined>,
): Promise<number> {
  let volume = current;
  for (let steps = 0; steps < MAX_VOLUME_STEPS && volume !== target; steps++) {
    const direction = target > volume ? 'up' : 'down';
    const next = await step(direction);
    if (next === undefined || next === volume) break;
    volume = next;
    // Past the target: a step size larger than the distance left; the level stays where the step took it.
    if ((direction === 'up' && volume > target) || (direction === 'down' && volume < target)) break;
  }
  return volume;
}
