import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SimulatorAccount } from './types';

/**
 * The device's two accounts: their passwords and the tokens logins hand out. A token stays the same for
 * an account and password until the password changes or the device reboots, as on real devices.
 */
export class Accounts {
  readonly #passwords: Record<SimulatorAccount, string>;
  readonly #tokenByAccount = new Map<SimulatorAccount, string>();
  readonly #accountByToken = new Map<string, SimulatorAccount>();
  /** Every token ever issued, for tests that look for a leaked secret. */
  readonly #issued = new Set<string>();

  constructor(passwords: Record<SimulatorAccount, string>) {
    this.#passwords = { ...passwords };
  }

  get issuedTokens(): string[] {
    return [...this.#issued];
  }

  isBlank(account: SimulatorAccount): boolean {
    return this.#passwords[account] === '';
  }

  /** A new password; the account's token stops working. */
  setPassword(account: SimulatorAccount, password: string): void {
    this.#passwords[account] = password;
    this.forgetToken(account);
  }

  /** Every token stops working; passwords are kept. */
  forgetTokens(): void {
    this.#tokenByAccount.clear();
    this.#accountByToken.clear();
  }

  forgetToken(account: SimulatorAccount): void {
    const token = this.#tokenByAccount.get(account);
    if (token !== undefined) this.#accountByToken.delete(token);
    this.#tokenByAccount.delete(account);
  }

  /** Compared in constant time, so a probe cannot learn the password from the answer's timing. */
  passwordMatches(account: SimulatorAccount, given: string): boolean {
    const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
    return timingSafeEqual(digest(given), digest(this.#passwords[account]));
  }

  tokenFor(account: SimulatorAccount): string {
    let token = this.#tokenByAccount.get(account);
    if (token === undefined) {
      token = randomBytes(24).toString('base64url');
      this.#issued.add(token);
      this.#tokenByAccount.set(account, token);
      this.#accountByToken.set(token, account);
    }
    return token;
  }

  /** The account of an `Authorization` header `<vendor> <token>` (one space, scheme in any case). */
  accountOf(authorization: string | undefined, vendor: string): SimulatorAccount | null {
    if (authorization === undefined) return null;
    const space = authorization.indexOf(' ');
    if (space <= 0) return null;
    const scheme = authorization.slice(0, space);
    const token = authorization.slice(space + 1);
    if (scheme.toLowerCase() !== vendor.toLowerCase() || token === '' || /\s/.test(token)) return null;
    return this.#accountByToken.get(token) ?? null;
  }
}
