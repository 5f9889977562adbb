import { SlidingWindow } from '../timing/sliding-window';
import type { Account } from './types';

/**
 * The most logins of one device and account in any window, whichever client, config node or deploy asks:
 * a device that accepts every login and refuses every token (or refuses every login) must not be asked
 * for one per request, per stream attempt, per redeploy or per config node. Once spent, no login for a
 * window, then two, four... up to `maxWaitMs` for that client, until a token works.
 */
export const LOGIN_BUDGET = { logins: 10, windowMs: 30_000, maxWaitMs: 240_000 } as const;

/** What the device did with the logins that did not hold, as the budget's message tells it. */
export type LoginFailure =
  | { kind: 'login refused'; statusCode: number; deviceMessage?: string }
  | { kind: 'token refused' };

/**
 * The login budget of one device and account. A login counts from the moment it starts; it is given back
 * when it never reached the device (no connection, a certificate refused), and a client's first login
 * when its token works: many clients that each log in once are not held back.
 */
export class LoginBudget {
  readonly #window = new SlidingWindow(LOGIN_BUDGET.logins, LOGIN_BUDGET.windowMs);
  #lastFailure: LoginFailure | undefined;

  /** 0, counting a login at `now`, when one may start; otherwise how long until one may. */
  take(now: number): number {
    return this.#window.take(now);
  }

  /** The login counted at `at` does not count against the device after all. */
  giveBack(at: number): void {
    this.#window.uncount(at);
  }

  /** The device answered a login with a refusal (any status but a 2xx), in these words if any. */
  loginRefused(statusCode: number, deviceMessage: string | undefined): void {
    this.#lastFailure = {
      kind: 'login refused',
      statusCode,
      ...(deviceMessage === undefined ? {} : { deviceMessage }),
    };
  }

  /** The device refused a token right after issuing it. */
  tokenRefused(): void {
    this.#lastFailure = { kind: 'token refused' };
  }

  get lastFailure(): LoginFailure | undefined {
    return this.#lastFailure;
  }
}

/** One budget per device (its base URL: host and port) and account, for the life of the process. */
const budgets = new Map<string, LoginBudget>();

export function loginBudgetOf(baseUrl: string, account: Account): LoginBudget {
  const key = `${account} ${baseUrl}`;
  let budget = budgets.get(key);
  if (budget === undefined) {
    budget = new LoginBudget();
    budgets.set(key, budget);
  }
  return budget;
}

/**
 * Forgets every device's budget. For tests, whose devices come and go on ports the system hands out
 * again: a new device on an old port must not inherit the logins of the one before.
 */
export function forgetLoginBudgets(): void {
  budgets.clear();
}
