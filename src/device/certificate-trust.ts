import type { TlsOptions } from '../api/types';

/** What the editor is told about the certificate a config node trusts (never a secret). */
export interface CertificateTrust {
  /** The pin in force: configured, or learned on first use; null before the first connection. */
  fingerprint: string | null;
  source: 'configured' | 'first use' | null;
  /** The device last showed another certificate than the pinned one (connections are refused). */
  mismatch: { expected: string; seen: string } | null;
}

/** One pin as stored, with the device's address: a pin learned for another address belongs to another device. */
export interface StoredPin {
  address: string;
  fingerprint: string;
}

/**
 * Where first-use pins are kept, one per config node. Synchronous, because the pin must be kept before the
 * connection that learned it sends the login. A storage that cannot keep a pin throws; the pin then lasts as
 * long as the connection.
 */
export interface PinStorage {
  read(nodeId: string): unknown;
  write(nodeId: string, pin: StoredPin): void;
}

/**
 * Trust on first use that lasts: the certificate a config node first saw (or the one the user pinned in
 * the dialog) is kept in a pin storage under the config node's id, with the device's address, and pinned
 * from then on. A new certificate is refused, naming both fingerprints, until the user accepts it in the
 * editor.
 */
export class CertificateTrustStore {
  readonly #storage: PinStorage;
  readonly #nodeId: string;
  readonly #address: string;

  constructor(storage: PinStorage, nodeId: string, address: string) {
    this.#storage = storage;
    this.#nodeId = nodeId;
    this.#address = address;
  }

  /** The pin settings for the client: the configured fingerprint, else the one trusted before, if any. */
  tlsFor(tls: TlsOptions): { tls: TlsOptions; source: CertificateTrust['source'] } {
    if (tls.mode !== 'pin') return { tls, source: null };
    if (tls.fingerprint !== undefined) {
      // Accepting a certificate in the dialog replaces what was learned: clearing the field later keeps it.
      this.remember(tls.fingerprint);
      return { tls, source: 'configured' };
    }
    const trusted = this.#recall();
    return trusted === undefined
      ? { tls, source: null }
      : { tls: { mode: 'pin', fingerprint: trusted }, source: 'first use' };
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

  #recall(): string | undefined {
    let stored: unknown;
    try {
      stored = this.#storage.read(this.#nodeId);
    } catch {
      return undefined;
    }
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { address, fingerprint } = stored as Partial<StoredPin>;
    return address === this.#address && typeof fingerprint === 'string' ? fingerprint : undefined;
  }
}
