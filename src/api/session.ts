import { DeviceError } from '../errors';
import { type Backoff, backoffDelay } from './backoff';
import { type Answer, isSuccess, readAuthParameters } from './bodies';
import { deviceMessageFrom } from './device-message';
import { errorFromStatus } from './errors';
import { loginTurn } from './login-pacer';
import { DEVICE_PATHS } from './protocol';
import { redact } from './redact';
import { SlidingWindow } from './sliding-window';
import type { Account, ConnectionState } from './types';

/** Tokens refused right after their login, in a row, before logins wait (see `refusedFreshToken`). */
const USELESS_LOGINS_BEFORE_BACKOFF = 3;

/**
 * The most logins of one client in any window, requests and streams together: a device that accepts
 * every login and refuses every token must not be asked for one per request and per stream attempt.
 * Once spent, no login for a window, then two, four... up to `maxWaitMs`, until a token works.
 */
export const LOGIN_BUDGET = { logins: 10, windowMs: 30_000, maxWaitMs: 240_000 } as const;
const BUDGET_BACKOFF = { initialMs: LOGIN_BUDGET.windowMs, maxMs: LOGIN_BUDGET.maxWaitMs };

export interface SessionOptions {
  account: Account;
  /** May be blank (older deployments). Held here only, and forgotten on close. */
  password: string;
  loginBackoff: Backoff;
  /** Posts a login body to the login path and hands back the answer (under the client's request ceiling). */
  postLogin: (body: string) => Promise<Answer>;
  onState: (state: ConnectionState, error?: DeviceError) => void;
}

/**
 * The login: one `authParameters` per device and account, held in memory only. Logins are single-flight
 * (concurrent callers share one), take turns with every other client's in the process (./login-pacer),
 * and wait after a refused password (1 s, doubling up to the cap) and after tokens the device refuses
 * right after issuing them, so neither a wrong password nor a confused device is flooded with logins.
 * Re-login after a 401 is the caller's call: `forget` the token.
 */
export class Session {
  readonly account: Account;
  #password: string;
  #token: string | undefined;
  #flight: Promise<string> | undefined;
  #refusals = 0;
  #blockedUntil = 0;
  #blockedBecause: 'password' | 'token' | 'budget' = 'password';
  #lastRefusal: DeviceError | undefined;
  /** Logins in a row whose fresh token the device refused at once (a 401 right after a 200 login). */
  #uselessLogins = 0;
  readonly #budget = new SlidingWindow(LOGIN_BUDGET.logins, LOGIN_BUDGET.windowMs);
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
    this.#flight = this.#login().finally(() => {
      this.#flight = undefined;
    });
    return this.#flight;
  }

  /** The device refused this token: the next caller logs in again. */
  forget(token: string): void {
    // Concurrent callers may all see a 401 for the same old token; only the first clears it.
    if (this.#token === token) this.#token = undefined;
  }

  /** An authorized answer other than 401 came: the token works. */
  confirmed(): void {
    this.#uselessLogins = 0;
    this.#budgetSpent = 0;
  }

  /**
   * The device refused a token it had just issued. Once or twice is a token that expired in between; from
   * the third time in a row logins wait, growing like a refused password's, so a device that refuses every
   * token is not asked for a new one in a loop. Returns the error to report then.
   */
  refusedFreshToken(): DeviceError | undefined {
    this.#uselessLogins += 1;
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

  async #login(): Promise<string> {
    this.#onState('connecting');
    // Before the exchange, whose timeout starts with it: a wait for the turn is not a slow device.
    await loginTurn(this.#closed.signal);
    const answer = await this.#postLogin(JSON.stringify({ account: this.account, password: this.#password }));
    const said = deviceMessageFrom(answer.text, answer.contentType);
    const deviceMessage = said === undefined ? undefined : redact(said, this.secrets());
    const details = {
      statusCode: answer.statusCode,
      ...(deviceMessage === undefined ? {} : { deviceMessage }),
    };
    if (answer.statusCode === 401) {
      this.#refusals += 1;
      const delay = backoffDelay(this.#backoff, this.#refusals);
      this.#blockedUntil = Date.now() + delay;
      this.#blockedBecause = 'password';
      const error = new DeviceError(
        'AUTH_FAILED',
        `Login refused: wrong password for account '${this.account}'` +
          (deviceMessage === undefined ? ' (HTTP 401)' : ` (device said: ${deviceMessage})`),
        { ...details, retryAfterMs: delay },
      );
      this.#lastRefusal = error;
      this.#onState('auth_failed', error);
      throw error;
    }
    if (!isSuccess(answer.statusCode)) {
      const error = errorFromStatus(
        'POST',
        DEVICE_PATHS.login,
        answer.statusCode,
        deviceMessage,
        this.account,
      );
      const hint = answer.statusCode === 400 ? '; check the vendor word, client id and account' : '';
      throw new DeviceError(error.code, `Login failed: ${error.message}${hint}`, details);
    }
    const token = readAuthParameters(answer);
    this.#refusals = 0;
    // A login that left before tokens were found useless must not lift the wait they set.
    if (this.#blockedBecause === 'password') {
      this.#blockedUntil = 0;
      this.#lastRefusal = undefined;
    }
    this.#token = token;
    this.#onState('connected');
    return token;
  }

  /** The budget is spent: no login until a slot frees, and longer each time in a row (AUTH_FAILED). */
  #budgetError(budgetWaitMs: number, now: number): DeviceError {
    this.#budgetSpent += 1;
    const delay = Math.max(budgetWaitMs, backoffDelay(BUDGET_BACKOFF, this.#budgetSpent));
    this.#blockedUntil = now + delay;
    this.#blockedBecause = 'budget';
    const error = new DeviceError(
      'AUTH_FAILED',
      `The device was asked for ${LOGIN_BUDGET.logins} logins of account '${this.account}' within ` +
        `${LOGIN_BUDGET.windowMs / 1000} s and kept none of them; not logging in again for ` +
        `${Math.ceil(delay / 1000)} s. Check the account's permissions and the vendor word on the device`,
      { statusCode: 401, retryAfterMs: delay },
    );
    this.#lastRefusal = error;
    this.#onState('auth_failed', error);
    return error;
  }

  #backoffError(waitMs: number): DeviceError {
    const seconds = Math.ceil(waitMs / 1000);
    const previous = this.#lastRefusal;
    const message =
      this.#blockedBecause !== 'password'
        ? `The device refused every fresh token of account '${this.account}' right after its login; not ` +
          `logging in again for ${seconds} s so the device is not flooded with logins. Check the account's ` +
          'permissions and the vendor word on the device'
        : `Login refused earlier for account '${this.account}'; not asking the device again for ${seconds} s ` +
          'so a wrong password cannot flood it. Fix the password (a new configuration starts afresh).';
    return new DeviceError('AUTH_FAILED', message, {
      ...(previous?.statusCode === undefined ? {} : { statusCode: previous.statusCode }),
      ...(previous?.deviceMessage === undefined ? {} : { deviceMessage: previous.deviceMessage }),
      retryAfterMs: waitMs,
    });
  }
}
