import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PinStorage, StoredPin } from './certificate-trust';

/** The file in Node-RED's user directory that keeps first-use pins when no persistent context store does. */
export const PIN_FILE_NAME = 'conference-audio-pins.json';

/** A context (Node-RED's global context), as much of it as a pin storage needs. */
export interface ContextStore {
  get(key: string, store?: string): unknown;
  set(key: string, value: unknown, store?: string): void;
}

/**
 * Pins in a context store, one entry per config node. The global context, because Node-RED clears a
 * node's own context on a full deploy.
 */
export class ContextPinStorage implements PinStorage {
  readonly #context: ContextStore;
  readonly #store: string | undefined;

  constructor(context: ContextStore, store: string | undefined) {
    this.#context = context;
    this.#store = store;
  }

  read(nodeId: string): unknown {
    return this.#context.get(contextKey(nodeId), this.#store);
  }

  write(nodeId: string, pin: StoredPin): void {
    this.#context.set(contextKey(nodeId), pin, this.#store);
  }
}

function contextKey(nodeId: string): string {
  return `conferenceAudioTrustedCertificate_${nodeId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * Pins in one JSON file, keyed by config node id, readable by its owner only. Written to a temporary file
 * first and renamed over the old one, so a crash leaves the old pins or the new ones, never half a file.
 */
export class FilePinStorage implements PinStorage {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  read(nodeId: string): unknown {
    const pins = this.#pins();
    return Object.hasOwn(pins, nodeId) ? pins[nodeId] : undefined;
  }

  write(nodeId: string, pin: StoredPin): void {
    // An unreadable file throws here rather than being replaced: it may hold the pins of other devices.
    const stored = this.#pins();
    // Every deploy and restart confirms each configured pin: 1,000 devices must not mean 1,000 file
    // writes, each with its fsync, while the event loop waits.
    if (samePin(stored[nodeId], pin)) return;
    const pins = { ...stored, [nodeId]: pin };
    const temporary = `${this.#file}.${process.pid}.tmp`;
    rmSync(temporary, { force: true });
    const descriptor = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(descriptor, `${JSON.stringify(pins, null, 2)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, this.#file);
  }

  #pins(): Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.#file} does not hold an object of pins`);
    }
    return parsed as Record<string, unknown>;
  }
}

function samePin(stored: unknown, pin: StoredPin): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const { address, fingerprint } = stored as Partial<StoredPin>;
  return address === pin.address && fingerprint === pin.fingerprint;
}

/**
 * The first store of settings.js's `contextStorage` that is not in memory (a file store survives
 * restarts), if any.
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
 * Where a first-use pin survives a restart: a persistent context store when settings.js has one (where
 * earlier versions kept pins), else a file in the user directory. Without either (an embedded runtime with
 * no user directory) the default context keeps it, which lasts until the restart.
 */
export function choosePinStorage(where: {
  contextStorage: unknown;
  userDir: unknown;
  globalContext: ContextStore;
}): PinStorage {
  const store = persistentStoreName(where.contextStorage);
  if (store !== undefined) return new ContextPinStorage(where.globalContext, store);
  if (typeof where.userDir === 'string' && where.userDir !== '') {
    return new FilePinStorage(path.join(where.userDir, PIN_FILE_NAME));
  }
  return new ContextPinStorage(where.globalContext, undefined);
}
