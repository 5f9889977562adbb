/** Runs every cleanup step even when an earlier one fails, so no child process outlives a benchmark. */
export async function stopAll(steps: ReadonlyArray<() => Promise<unknown> | undefined>): Promise<void> {
  let firstError: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError !== undefined) throw firstError;
}
