import type { TlsOptions } from '../../api/types';

/** What the editor is told about the certificate a config node trusts (never a secret). */
export interface CertificateTrust {
  /** The pin in force: configured, or learned on first use; null before the first connection. */
  fingerprint: string | null;
  source: 'configured' | 'first use' | null;
  /** The device last showed another certificate than the pinned one (connections are refused). */
  mismatch: { expected: string; seen: string } | null;
}

/** A node context, as much of it as the trust store needs (Node-RED's context API). */
export interface ContextStore {
  get(key: string, store?: string): unknown;
  set(key: string, value: unknown, store?: string): void;
}

interface StoredPin {
  address: string;
  fingerprint: string;
}

/** One global context entry per config node: node context is cleared on a full deploy, global is not. */
function keyFor(nodeId: string): string {
  return `conferenceAudioTrustedCertificate_${nodeId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * Which context store keeps a first-use pin: the first store of settings.js's `contextStorage` that is
 * not in memory (a file store survives restarts), else the default store (it survives redeploys only).
 */
export function persistentStoreName(contextStorage: unknown): string | undefined {
  if (typeof contextStorage !== 'object' || contextStorage === null) return undefined;
  for (const [name, config] of Object.entries(contextStorage)) {
    const module =
      typeof config === 'object' && config !== null ? (config as { module?: unknown }).module : config;
    if (name !== 'default' && module !== 'memory' && module !== undefined) return name;
  }
  return undefined;
}

/**
 * Trust on first use that lasts: the certificate a config node first saw (or the one the user pinned in
 * the dialog) is kept in the global context under the config node's id, with the device's address, and
 * pinned from then on. A new certificate is refused, naming both fingerprints, until the user accepts it
 * in the editor. The global context, because Node-RED clears a node's own context on a full deploy.
 */
export class CertificateTrustStore {
  readonly #context: ContextStore;
  readonly #store: string | undefined;
  readonly #key: string;
  readonly #address: string;

  constructor(context: ContextStore, store: string | undefined, nodeId: string, address: string) {
    this.#context = context;
    this.#store = store;
    this.#key = keyFor(nodeId);
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

  remember(fingerprint: string): void {
    const pin: StoredPin = { address: this.#address, fingerprint };
    try {
      this.#context.set(this.#key, pin, this.#store);
    } catch {
      // A store that cannot be written synchronously keeps nothing: the pin lasts until the next restart.
    }
  }

  #recall(): string | undefined {
    let stored: unknown;
    try {
      stored = this.#context.get(this.#key, this.#store);
    } catch {
      return undefined;
    }
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { address, fingerprint } = stored as Partial<StoredPin>;
    // A pin learned for another address belongs to another device.
    return address === this.#address && typeof fingerprint === 'string' ? fingerprint : undefined;
  }
}
