import { DeviceError } from '../errors';
import { type Answer, isSuccess, readAuthParameters } from './bodies';
import { deviceMessageFrom, errorFromStatus, redact } from './errors';
import { LOGIN_PATH } from './protocol';
import type { Backoff } from './settings';
import type { Account, ConnectionState } from './types';

/** Tokens refused right after their login, in a row, before logins wait (see `refusedFreshToken`). */
const USELESS_LOGINS_BEFORE_BACKOFF = 3;

export interface SessionOptions {
  account: Account;
  /** May be blank (older deployments). Held here only, and forgotten on close. */
  password: string;
  loginBackoff: Backoff;
  /** Posts a login body to LOGIN_PATH and hands back the answer (under the client's request ceiling). */
  postLogin: (body: string) => Promise<Answer>;
  onState: (state: ConnectionState, error?: DeviceError) => void;
}

/**
 * The login: one `authParameters` per device and account, held in memory only. Logins are single-flight
 * (concurrent callers share one), and they wait after a refused password (1 s, doubling up to the cap)
 * and after tokens the device refuses right after issuing them, so neither a wrong password nor a
 * confused device is flooded with logins. Re-login after a 401 is the caller's call: `forget` the token.
 */
export class Session {
  readonly account: Account;
  #password: string;
  #token: string | undefined;
  #flight: Promise<string> | undefined;
  #refusals = 0;
  #blockedUntil = 0;
  #blockedBecause: 'password' | 'token' = 'password';
  #lastRefusal: DeviceError | undefined;
  /** Logins in a row whose fresh token the device refused at once (a 401 right after a 200 login). */
  #uselessLogins = 0;
  readonly #backoff: Backoff;
  readonly #postLogin: (body: string) => Promise<Answer>;
  readonly #onState: (state: ConnectionState, error?: DeviceError) => void;

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
    const waitMs = this.#blockedUntil - Date.now();
    if (waitMs > 0) return Promise.reject(this.#backoffError(waitMs));
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
  }

  /**
   * The device refused a token it had just issued. Once or twice is a token that expired in between; from
   * the third time in a row logins wait, growing like a refused password's, so a device that refuses every
   * token is not asked for a new one in a loop. Returns the error to report then.
   */
  refusedFreshToken(): DeviceError | undefined {
    this.#uselessLogins += 1;
    if (this.#uselessLogins < USELESS_LOGINS_BEFORE_BACKOFF) return undefined;
    const delay = Math.min(
      this.#backoff.initialMs * 2 ** (this.#uselessLogins - USELESS_LOGINS_BEFORE_BACKOFF),
      this.#backoff.maxMs,
    );
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
  }

  async #login(): Promise<string> {
    this.#onState('connecting');
    const answer = await this.#postLogin(JSON.stringify({ account: this.account, password: this.#password }));
    const said = deviceMessageFrom(answer.text, answer.contentType);
    const deviceMessage = said === undefined ? undefined : redact(said, this.secrets());
    const details = {
      statusCode: answer.statusCode,
      ...(deviceMessage === undefined ? {} : { deviceMessage }),
    };
    if (answer.statusCode === 401) {
      this.#refusals += 1;
      const delay = Math.min(this.#backoff.initialMs * 2 ** (this.#refusals - 1), this.#backoff.maxMs);
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
      const error = errorFromStatus('POST', LOGIN_PATH, answer.statusCode, deviceMessage, this.account);
      const hint = answer.statusCode === 400 ? '; check the vendor word, client id and account' : '';
      throw new DeviceError(error.code, `Login failed: ${error.message}${hint}`, details);
    }
    const token = readAuthParameters(answer);
    this.#refusals = 0;
    this.#blockedUntil = 0;
    this.#lastRefusal = undefined;
    this.#token = token;
    this.#onState('connected');
    return token;
  }

  #backoffError(waitMs: number): DeviceError {
    const seconds = Math.ceil(waitMs / 1000);
    const previous = this.#lastRefusal;
    const message =
      this.#blockedBecause === 'token'
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
