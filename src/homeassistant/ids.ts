/**
 * Names the device chooses (its hardware id, its LED names, the room's name) made safe for MQTT topics,
 * Home Assistant ids and the texts of a discovery config. Topics and ids keep only `[A-Za-z0-9_-]`: a
 * name with anything else (a `/`, `#`, `+`, `}}`, a NUL) is cleaned and gets a short hash of the original,
 * so that two names cleaned alike still give two ids, and the same name always gives the same id.
 */
import { createHash } from 'node:crypto';

/** Longer ids are cut: Home Assistant and brokers take long ones, but a topic stays readable. */
export const MAX_ID_LENGTH = 64;
/** Longer names are cut: a 10,000-character device name must not fill Home Assistant's pages. */
export const MAX_NAME_LENGTH = 100;

const SAFE_ID = /^[A-Za-z0-9_-]+$/;
const UNSAFE_ID_CHARACTERS = /[^A-Za-z0-9_-]+/g;
/** C0 and C1 control characters (NUL among them) and lone surrogate halves (not valid UTF-8). */
const CONTROL = /[\p{Cc}\p{Cs}]/gu;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** `text` as one topic level or id part: itself when it is safe already, else cleaned with a hash. */
export function safeId(text: string): string {
  if (text.length <= MAX_ID_LENGTH && SAFE_ID.test(text)) return text;
  const cleaned = text
    .replace(UNSAFE_ID_CHARACTERS, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_ID_LENGTH - 9);
  return cleaned === '' ? `x${shortHash(text)}` : `${cleaned}_${shortHash(text)}`;
}

/**
 * The part of a Home Assistant entity id (`switch.<slug>`) a name suggests: lower case letters, digits and
 * single underscores; empty when nothing is left. Home Assistant numbers a clash itself.
 */
export function entitySlug(text: string, maxLength = 40): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxLength)
    .replace(/_+$/, '');
}

/** A name for a discovery config's text fields: no control characters, cut to MAX_NAME_LENGTH. */
export function displayName(text: string): string {
  return Array.from(text.replace(CONTROL, '').trim()).slice(0, MAX_NAME_LENGTH).join('');
}

export { isSafeTopic } from './safe-topic';
