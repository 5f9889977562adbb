import { DeviceError } from '../errors';
import { type Backoff, backoffDelay } from '../timing/backoff';
import { type Answer, isSuccess, readAuthParameters } from './bodies';
import { deviceMessageFrom } from './device-message';
import { LOGIN_BUDGET, type LoginBudget } from './login-budget';
import { loginTurn } from './login-pacer';
import { redact } from './redact';
import type { Account, ConnectionState } from './types';

export { LOGIN_BUDGET } from './login-budget';

/** Tokens refused right after their login, in a row, before logins wait (see `refusedFreshToken`). */
const USELESS_LOGINS_BEFORE_BACKOFF = 3;

const BUDGET_BACKOFF = { initialMs: LOGIN_BUDGET.windowMs, maxMs: LOGIN_BUDGET.maxWaitMs };

/** How a login fails when it never reached the device: it does not count against the device's budget. */
const NOT_SENT = new Set(['UNREACHABLE', 'TLS', 'CLOSED']);

type BlockedBecause = 'password' | 'login' | 'token' | 'budget';

export interface SessionOptions {
  account: Account;
  /** May be blank (older deployments). Held here only, and forgotten on close. */
  password: string;
  loginBackoff: Backoff;
  /** The logins of this device and account, shared by every client of the process (./login-budget). */
  budget: LoginBudget;
  /** Posts a login body to the login path and hands back the answer (under the client's request ceiling). */
  postLogin: (body: string) => Promise<Answer>;
  onState: (state: ConnectionState, error?: DeviceError) => void;
}

/**
 * The login: one `authParameters` per device and account, held in memory only. Logins are single-flight
 * (concurrent callers share one), take turns with every other client's in the process (./login-pacer),
 * stay within the device and account's budget (./login-budget), and wait after a refused login (any
 * answer but a 2xx: 1 s, doubling up to the cap) and after tokens the device refuses right after issuing
 * them, so neither a wrong password nor a confused device is flooded with logins.
 * Re-login after a 401 is the caller's call: `forget` the token.
 */
export class Session {
  readonly account: Account;
  #password: string;
  #token: string | undefined;
  #flight: Promise<string> | undefined;
  #refusals = 0;
  #blockedUntil = 0;
  #blockedBecause: BlockedBecause = 'password';
  #lastRefusal: DeviceError | undefined;
  /** Logins in a row whose fresh token the device refused at once (a 401 right after a 200 login). */
  #uselessLogins = 0;
  readonly #budget: LoginBudget;
  /**
   * When the budget counted this session's first login, until its token works and the login is given back:
   * a deploy, or another config node, that logs in once is no flood. Logins after it always count, so a
   * device that takes each token once is asked for no more than the budget.
   */
  #tokenCountedAt: number | undefined;
  #loggedIn = false;
  /** Times in a row the login budget was found spent: each one waits longer. */
  #budgetSpent = 0;
  readonly #backoff: Backoff;
  readonly #postLogin: (body: string) => Promise<Answer>;
  readonly #onState: (state: ConnectionState, error?: DeviceError) => void;
  /** Aborted on close: a login still waiting for its turn in the process's queue leaves it. */
  readonly #closed = new AbortController();

  constructor(options: SessionOptions) {
    this.account = options.account;
    this.#password = options.password;
    this.#backoff = options.loginBackoff;
    this.#budget = options.budget;
    this.#postLogin = options.postLogin;
    this.#onState = options.onState;
  }

  /** The token held now, if any: callers that have one go on without waiting for a promise. */
  get token(): string | undefined {
    return this.#token;
  }

  /** A token: the one held, the login in flight, or a new login; AUTH_FAILED while logins wait. */
  ensureToken(): Promise<string> {
    if (this.#token !== undefined) return Promise.resolve(this.#token);
    if (this.#flight !== undefined) return this.#flight;
    const now = Date.now();
    const waitMs = this.#blockedUntil - now;
    if (waitMs > 0) return Promise.reject(this.#backoffError(waitMs));
    const budgetWaitMs = this.#budget.take(now);
    if (budgetWaitMs > 0) return Promise.reject(this.#budgetError(budgetWaitMs, now));
    this.#flight = this.#login(now).finally(() => {
      this.#flight = undefined;
    });
    return this.#flight;
  }

  /** The device refused this token: the next caller logs in again. */
  forget(token: string): void {
    // Concurrent callers may all see a 401 for the same old token; only the first clears it.
    if (this.#token === token) {
      this.#token = undefined;
      this.#tokenCountedAt = undefined;
    }
  }

  /** An authorized answer other than 401 came: the token works (and the first login leaves the budget). */
  confirmed(): void {
    this.#uselessLogins = 0;
    this.#budgetSpent = 0;
    if (this.#tokenCountedAt !== undefined) {
      this.#budget.giveBack(this.#tokenCountedAt);
      this.#tokenCountedAt = undefined;
    }
  }

  /**
   * The device refused a token it had just issued. Once or twice is a token that expired in between; from
   * the third time in a row logins wait, growing like a refused password's, so a device that refuses every
   * token is not asked for a new one in a loop. Returns the error to report then.
   */
  refusedFreshToken(): DeviceError | undefined {
    this.#uselessLogins += 1;
    this.#budget.tokenRefused();
    if (this.#uselessLogins < USELESS_LOGINS_BEFORE_BACKOFF) return undefined;
    const delay = backoffDelay(this.#backoff, this.#uselessLogins - USELESS_LOGINS_BEFORE_BACKOFF + 1);
    this.#blockedUntil = Date.now() + delay;
    this.#blockedBecause = 'token';
    const error = new DeviceError(
      'AUTH_FAILED',
      `The device accepts the login of account '${this.account}' but refuses the token at once ` +
        `(${this.#uselessLogins} logins in a row); not logging in again for ${Math.ceil(delay / 1000)} s`,
      { statusCode: 401, retryAfterMs: delay },
    );
    this.#lastRefusal = error;
    return error;
  }

  /** What must never appear in a message: the password and the token. */
  secrets(): (string | undefined)[] {
    return [this.#password, this.#token];
  }

  close(): void {
    this.#token = undefined;
    this.#password = '';
    this.#closed.abort();
  }

  async #login(countedAt: number): Promise<string> {
    this.#onState('connecting');
    let answer: Answer;
    try {
      // Before the exchange, whose timeout starts with it: a wait for the turn is not a slow device.
      await loginTurn(this.#closed.signal);
      answer = await this.#postLogin(JSON.stringify({ account: this.account, password: this.#password }));
    } catch (error) {
      if (error instanceof DeviceError && NOT_SENT.has(error.code)) this.#budget.giveBack(countedAt);
      throw error;
    }
    const said = deviceMessageFrom(answer.text, answer.contentType);
    const deviceMessage = said === undefined ? undefined : redact(said, this.secrets());
    if (!isSuccess(answer.statusCode)) throw this.#refused(answer.statusCode, deviceMessage);
    const token = readAuthParameters(answer);
    this.#refusals = 0;
    // A login that left before tokens were found useless must not lift the wait they set.
    if (this.#blockedBecause === 'password' || this.#blockedBecause === 'login') {
      this.#blockedUntil = 0;
      this.#lastRefusal = undefined;
    }
    this.#token = token;
    if (!this.#loggedIn) this.#tokenCountedAt = countedAt;
    this.#loggedIn = true;
    this.#onState('connected');
    return token;
  }

  /**
   * Any answer but a 2xx to the login is a refused login (rate limiting, answered before, aside): AUTH_FAILED
   * with the device's words, and logins wait, doubling, as after a wrong password.
   */
  #refused(statusCode: number, deviceMessage: string | undefined): DeviceError {
    this.#refusals += 1;
    const delay = backoffDelay(this.#backoff, this.#refusals);
    this.#blockedUntil = Date.now() + delay;
    this.#blockedBecause = statusCode === 401 ? 'password' : 'login';
    const said = deviceMessage === undefined ? '' : ` (device said: ${deviceMessage})`;
    const spoken = deviceMessage === undefined ? {} : { deviceMessage };
    const error =
      statusCode === 401
        ? new DeviceError(
            'AUTH_FAILED',
            `Login refused: wrong password for account '${this.account}'${said || ' (HTTP 401)'}`,
            { statusCode, ...spoken, retryAfterMs: delay },
          )
        : // Without the status: it answered the login, not the caller's request, where a 400 or a 404
          // would read as that request refused (a bad value, a resource the device lacks).
          new DeviceError(
            'AUTH_FAILED',
            `Login refused: the device answered the login of account '${this.account}' with HTTP ` +
              `${statusCode}${said}${statusCode === 400 ? '; check the vendor word, client id and account' : ''}`,
            { ...spoken, retryAfterMs: delay },
          );
    this.#lastRefusal = error;
    this.#budget.loginRefused(statusCode, deviceMessage);
    this.#onState('auth_failed', error);
    return error;
  }

  /** The budget is spent: no login until a slot frees, and longer each time in a row (AUTH_FAILED). */
  #budgetError(budgetWaitMs: number, now: number): DeviceError {
    this.#budgetSpent += 1;
    const delay = Math.max(budgetWaitMs, backoffDelay(BUDGET_BACKOFF, this.#budgetSpent));
    this.#blockedUntil = now + delay;
    this.#blockedBecause = 'budget';
    const failure = this.#budget.lastFailure;
    const statusCode = failure?.kind === 'login refused' ? failure.statusCode : 401;
    const error = new DeviceError('AUTH_FAILED', this.#budgetText(Math.ceil(delay / 1000)), {
      // Only a 401 stands for the caller's request too: the device refused the account.
      ...(statusCode === 401 ? { statusCode } : {}),
      ...(failure?.kind === 'login refused' && failure.deviceMessage !== undefined
        ? { deviceMessage: failure.deviceMessage }
        : {}),
      retryAfterMs: delay,
    });
    this.#lastRefusal = error;
    this.#onState('auth_failed', error);
    return error;
  }

  /** What became of the logins that spent the budget, and for how long no login is sent. */
  #budgetText(seconds: number): string {
    const failure = this.#budget.lastFailure;
    const logins =
      `${LOGIN_BUDGET.logins} logins of account '${this.account}' within ${LOGIN_BUDGET.windowMs / 1000} s ` +
      '(every connection to this device together)';
    const wait = `not logging in again for ${seconds} s`;
    if (failure?.kind === 'login refused') {
      const said =
        failure.deviceMessage === undefined
          ? `HTTP ${failure.statusCode}`
          : `device said: ${failure.deviceMessage}`;
      return (
        `The device refused the login: ${logins}, none kept (last: ${said}); ${wait}. ` +
        'Check the password, the account and the vendor word'
      );
    }
    if (failure?.kind === 'token refused') {
      return (
        `The device accepted ${logins} but refused the tokens it issued; ${wait}. ` +
        "Check the account's permissions and the vendor word on the device"
      );
    }
    // Nothing refused yet (logins started together, or tokens the device drops after a request).
    return `The device was asked for ${logins}, more than a device that keeps its tokens needs; ${wait}`;
  }

  #backoffError(waitMs: number): DeviceError {
    const seconds = Math.ceil(waitMs / 1000);
    const previous = this.#lastRefusal;
    return new DeviceError('AUTH_FAILED', this.#backoffText(seconds), {
      ...(previous?.statusCode === undefined ? {} : { statusCode: previous.statusCode }),
      ...(previous?.deviceMessage === undefined ? {} : { deviceMessage: previous.deviceMessage }),
      retryAfterMs: waitMs,
    });
  }

  #backoffText(seconds: number): string {
    switch (this.#blockedBecause) {
      case 'budget':
        return this.#budgetText(seconds);
      case 'token':
        return (
          `The device refused every fresh token of account '${this.account}' right after its login; not ` +
          `logging in again for ${seconds} s so the device is not flooded with logins. Check the account's ` +
          'permissions and the vendor word on the device'
        );
      case 'login': {
        const said = this.#lastRefusal?.deviceMessage;
        return (
          `The device refused the login of account '${this.account}' earlier` +
          `${said === undefined ? '' : ` (device said: ${said})`}; not asking the device again for ` +
          `${seconds} s so it is not flooded with logins. Check the account, the vendor word and the client id`
        );
      }
      default:
        return (
          `Login refused earlier for account '${this.account}'; not asking the device again for ${seconds} s ` +
          'so a wrong password cannot flood it. Fix the password (a new configuration starts afresh).'
        );
    }
  }
}
