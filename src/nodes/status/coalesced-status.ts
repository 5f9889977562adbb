import { Coalescer } from '../../timing/coalescer';

/**
 * A node's status updates, coalesced: the latest wins and at most one reaches Node-RED per interval. A
 * device that floods events (the muted error and sound location in turn) would otherwise send thousands
 * of updates a second to every open editor, whose queue then holds them all. No Node-RED import.
 */

/** At most four status updates a second per node: as fast as a person reads, far below a flood. */
export const STATUS_INTERVAL_MS = 250;

export interface StatusLike {
  fill?: string;
  shape?: string;
  text?: string;
}

/** The same status again costs an editor update and is dropped. */
export class CoalescedStatus<S extends StatusLike> extends Coalescer<S> {
  constructor(show: (status: S) => void, intervalMs = STATUS_INTERVAL_MS) {
    super(show, (status) => JSON.stringify([status.fill, status.shape, status.text]), intervalMs);
  }
}
