/** What a node offers for its subscriptions' lifetime (a Node-RED node; no Node-RED import here). */
export interface Closable {
  on(event: 'close', listener: () => void): unknown;
}

/**
 * A live node's subscriptions to its device's streams, made right after the deploy finished (a Catch
 * node further down the flow exists by then and sees an error) and each undone when the node closes,
 * also those made before a later one failed. `onClose` runs first, for the node's own timers and flags.
 */
export function subscribeAfterDeploy(
  node: Closable,
  subscribe: (keep: (unsubscribe: () => void) => void) => void,
  onError: (error: unknown) => void,
  onClose?: () => void,
): void {
  let closed = false;
  const unsubscribes: Array<() => void> = [];
  const joining = setImmediate(() => {
    if (closed) return;
    try {
      subscribe((unsubscribe) => unsubscribes.push(unsubscribe));
    } catch (error) {
      onError(error);
    }
  });
  node.on('close', () => {
    closed = true;
    clearImmediate(joining);
    onClose?.();
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  });
}
