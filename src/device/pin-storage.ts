import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PinStorage, StoredPin } from './certificate-trust';

/** The file in Node-RED's user directory that keeps first-use pins. */
export const PIN_FILE_NAME = 'conference-audio-pins.json';

/** A fingerprint as this storage writes it: 32 bytes, upper-case hex, colons between. */
const STORED_FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

/**
 * A pin store that exists but cannot be read or parsed. Never taken for "no pin yet": that would trust
 * whatever certificate answers next.
 */
export class UnreadablePinStore extends Error {
  readonly file: string;

  constructor(file: string, problem: string) {
    super(`${file} ${problem}`);
    this.name = 'UnreadablePinStore';
    this.file = file;
  }
}

/**
 * Pins in memory for the life of the process: only when Node-RED has no user directory (an embedded
 * runtime). Private to this package, so a flow cannot set a pin as it could in a context store.
 */
export class MemoryPinStorage implements PinStorage {
  readonly #pins = new Map<string, StoredPin>();

  read(nodeId: string): StoredPin | undefined {
    return this.#pins.get(nodeId);
  }

  write(nodeId: string, pin: StoredPin): void {
    this.#pins.set(nodeId, { ...pin });
  }
}

/**
 * Pins in one JSON file, keyed by config node id, readable by its owner only. Written to a temporary file
 * first and renamed over the old one, so a crash leaves the old pins or the new ones, never half a file.
 * A file that cannot be read is never written over: it may hold the pins of other devices.
 */
export class FilePinStorage implements PinStorage {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  /** The entry for `nodeId`, undefined when there is none; throws UnreadablePinStore. */
  read(nodeId: string): StoredPin | undefined {
    const pins = this.#pins();
    if (!Object.hasOwn(pins, nodeId)) return undefined;
    const entry = pins[nodeId];
    const { address, fingerprint } =
      typeof entry === 'object' && entry !== null ? (entry as Partial<StoredPin>) : {};
    if (
      typeof address !== 'string' ||
      typeof fingerprint !== 'string' ||
      !STORED_FINGERPRINT.test(fingerprint)
    ) {
      throw new UnreadablePinStore(
        this.#file,
        `holds an entry for config node ${nodeId} that is not an address and a SHA-256 fingerprint`,
      );
    }
    return { address, fingerprint };
  }

  write(nodeId: string, pin: StoredPin): void {
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
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return {};
      throw new UnreadablePinStore(this.#file, readFailure(code));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UnreadablePinStore(this.#file, `is not valid JSON (${reason})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      const found = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
      throw new UnreadablePinStore(this.#file, `holds ${found}, not an object of pins by config node id`);
    }
    return parsed as Record<string, unknown>;
  }
}

function readFailure(code: string | undefined): string {
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return `cannot be read: permission denied (${code})`;
  return `cannot be read (${code ?? 'unknown error'})`;
}

function samePin(stored: unknown, pin: StoredPin): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  const { address, fingerprint } = stored as Partial<StoredPin>;
  return address === pin.address && fingerprint === pin.fingerprint;
}

/**
 * Where a first-use pin survives a restart: an owner-only file in the user directory. Never a context
 * store, where a Function node's `global.set` could replace the pin. Without a user directory (an embedded
 * runtime) `memory` keeps it, which lasts until the restart.
 */
export function choosePinStorage(where: { userDir: unknown; memory: MemoryPinStorage }): PinStorage {
  if (typeof where.userDir === 'string' && where.userDir !== '') {
    return new FilePinStorage(path.join(where.userDir, PIN_FILE_NAME));
  }
  return where.memory;
}
