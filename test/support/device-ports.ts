/**
 * The ports the test devices of this process have listened on. A device client keeps its stream-connect
 * budget per device address for the life of the process (src/api/connect-budget.ts: a redeployed client
 * must not start afresh), and the OS hands a port out again soon after it is closed, so a new test device
 * on an old port inherits the connections an earlier test made there: a test that counts connections
 * against a small budget then sees fewer than the budget allows.
 */
const claimed = new Set<number>();

/** Claims `port` for a test device; false when a test device of this process claimed it before. */
export function claimDevicePort(port: number): boolean {
  if (claimed.has(port)) return false;
  claimed.add(port);
  return true;
}
