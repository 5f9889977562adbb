import type { TlsOptions } from '../api/types';
import { DeviceError } from '../errors';

/** What the editor is told about the certificate a config node trusts (never a secret). */
export interface CertificateTrust {
  /** The pin in force: configured, or learned on first use; null before the first connection. */
  fingerprint: string | null;
  source: 'configured' | 'first use' | null;
  /** The device last showed another certificate than the pinned one (connections are refused). */
  mismatch: { expected: string; seen: string } | null;
  /** The pin store exists but cannot be read: what is wrong with it, naming the file. */
  storeProblem: string | null;
}

/** One pin as stored, with the device's address: a pin learned for another address belongs to another device. */
export interface StoredPin {
  address: string;
  fingerprint: string;
}

/**
 * Where first-use pins are kept, one per config node. Synchronous, because the pin must be kept before the
 * connection that learned it sends the login. `read` answers undefined when there is no entry and throws,
 * naming the store and what is wrong, when the store exists but cannot be read or its entry is no pin;
 * `write` throws when it cannot keep a pin.
 */
export interface PinStorage {
  read(nodeId: string): StoredPin | undefined;
  write(nodeId: string, pin: StoredPin): void;
}

/** What the pin storage holds for one config node and address. */
type Recalled =
  | { kind: 'none' }
  | { kind: 'pin'; fingerprint: string }
  | { kind: 'unreadable'; problem: string };

/**
 * Trust on first use that lasts: the certificate a config node first saw (or the one the user pinned in
 * the dialog) is kept in a pin storage under the config node's id, with the device's address, and pinned
 * from then on. A new certificate is refused, naming both fingerprints, until the user accepts it in the
 * editor. A storage that exists but cannot be read trusts no certificate on first use.
 */
export class CertificateTrustStore {
  readonly #storage: PinStorage;
  readonly #nodeId: string;
  readonly #address: string;
  #problem: string | undefined;

  constructor(storage: PinStorage, nodeId: string, address: string) {
    this.#storage = storage;
    this.#nodeId = nodeId;
    this.#address = address;
  }

  /**
   * The pin settings for the client: the configured fingerprint, else the one trusted before, if any. A
   * storage that cannot be read is left as it is (see `storeProblem`).
   */
  tlsFor(tls: TlsOptions): { tls: TlsOptions; source: CertificateTrust['source'] } {
    if (tls.mode !== 'pin') return { tls, source: null };
    const recalled = this.#recall();
    if (tls.fingerprint !== undefined) {
      // Accepting a certificate in the dialog replaces what was learned: clearing the field later keeps it.
      if (recalled.kind !== 'unreadable') this.remember(tls.fingerprint);
      return { tls, source: 'configured' };
    }
    return recalled.kind === 'pin'
      ? { tls: { mode: 'pin', fingerprint: recalled.fingerprint }, source: 'first use' }
      : { tls, source: null };
  }

  /** What was wrong with the storage when it was last read (naming it); undefined when it could be read. */
  get storeProblem(): string | undefined {
    return this.#problem;
  }

  /**
   * A certificate seen with no pin in force: the fingerprint to pin (the one seen, kept in the storage; or
   * one stored meanwhile), and whether the storage kept it. Throws the DeviceError TLS when the storage
   * cannot be read, so nothing is trusted and nothing is sent.
   */
  firstUse(seen: string): { fingerprint: string; kept: boolean } {
    const recalled = this.#recall();
    if (recalled.kind === 'unreadable') throw unreadableStoreError(recalled.problem, this.#address);
    if (recalled.kind === 'pin') return { fingerprint: recalled.fingerprint, kept: true };
    return { fingerprint: seen, kept: this.remember(seen) };
  }

  /** Keeps `fingerprint` for this config node; false when the storage could not keep it. */
  remember(fingerprint: string): boolean {
    try {
      this.#storage.write(this.#nodeId, { address: this.#address, fingerprint });
      return true;
    } catch {
      return false;
    }
  }

  #recall(): Recalled {
    let stored: StoredPin | undefined;
    try {
      stored = this.#storage.read(this.#nodeId);
    } catch (error) {
      this.#problem = error instanceof Error ? error.message : String(error);
      return { kind: 'unreadable', problem: this.#problem };
    }
    this.#problem = undefined;
    // Learned for another address: the config node now points at another device, which is new to it.
    return stored?.address === this.#address
      ? { kind: 'pin', fingerprint: stored.fingerprint }
      : { kind: 'none' };
  }
}

/** The refusal of every connection while the pin storage cannot be read. */
export function unreadableStoreError(problem: string, address: string): DeviceError {
  return new DeviceError(
    'TLS',
    `The certificate pin store ${problem}: no certificate of the device at ${address} is trusted on first use ` +
      'until it can be read, so nothing is sent to it. Repair the file, or enter the device certificate ' +
      "fingerprint in the device node (Read certificate). Deleting the file forgets every device's pin: " +
      'each then trusts the next certificate it sees.',
  );
}
