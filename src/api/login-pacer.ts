import { MAX_WINDOW_LIMIT } from '../timing/sliding-window';
import { clientClosedError } from './errors';
import { RequestLimiter } from './request-limiter';
import { positive } from './settings';

const SECOND_MS = 1000;

/**
 * 50 logins a second. A login costs a few milliseconds of CPU, mostly its TLS handshake (5 ms for both
 * ends together, measured with 200 simulators in one process), so logins take at most about a quarter
 * of a core and running flows, the editor and exchanges whose timeout already runs keep the event loop;
 * 1,000 devices are all logged in within about 22 s of a deploy or a restart.
 */
export const LOGIN_PACE_DEFAULTS = { perSecond: 50 } as const;

export interface LoginPace {
  /** Logins that may start in any one second, across every client of the process. Whole, 1 to 10,000. */
  perSecond?: number;
}

/**
 * One queue for the logins of every client in the process, so that 1,000 devices do not all log in
 * within the same second after a deploy, a restart or the end of a network cut. It is the request
 * limiter's token bucket over one second: a tenth of the pace may start at once (a redeploy of a few
 * devices waits for nothing), the rest at even spacing, never more than the pace in any second, first
 * come first served.
 */
let pacer = new RequestLimiter(LOGIN_PACE_DEFAULTS.perSecond, SECOND_MS);

/**
 * Sets how many logins may start in any second; an absent `perSecond` means the default. Throws
 * INVALID_CONFIG naming the option. Logins already waiting keep the pace they queued under: the pace is
 * meant to be set once, at start-up, before any client logs in.
 */
export function setLoginPace(pace: LoginPace = {}): void {
  const perSecond = positive('perSecond', pace.perSecond, LOGIN_PACE_DEFAULTS.perSecond, {
    integer: true,
    max: MAX_WINDOW_LIMIT,
  });
  pacer = new RequestLimiter(perSecond, SECOND_MS);
}

/**
 * Resolves when one more login may start. `closed` is the waiting client's: once it aborts (the client
 * closed), the turn leaves the queue at once and this rejects with CLOSED, so a redeploy does not leave
 * the logins of clients that are gone ahead of those of their successors.
 */
export async function loginTurn(closed: AbortSignal): Promise<void> {
  if (closed.aborted) throw clientClosedError();
  if (pacer.tryAcquire()) return;
  try {
    await pacer.acquire(closed);
  } catch {
    // The queue is never closed: only the client's own signal ends a wait.
    throw clientClosedError();
  }
}

/** How many logins wait for their turn now. */
export function waitingLogins(): number {
  return pacer.waiting;
}
