import type { Translate } from '../texts/catalogue';

/**
 * Device-supplied names (event names, zone ids) made safe for `msg.topic`: a flow may wire a live node
 * straight to mqtt out, and a broker drops the connection of a client that publishes a topic with a
 * control character, and loses its place in a stream of packets at a topic of 80,000 characters. No
 * Node-RED import.
 */

/** Longer names are cut: no device names an event or a zone with more, and a topic stays readable. */
export const MAX_NAME_LENGTH = 200;

/**
 * C0 and C1 control characters (NUL among them), and the halves of a surrogate pair that lost its other
 * half (not valid UTF-8, which MQTT requires).
 */
const UNSAFE = /[\p{Cc}\p{Cs}]/gu;
/** MQTT's wildcards, which a topic to publish must not contain. */
const WILDCARDS = /[#+]/g;
/** A non-empty name with none of the characters above and no `/`: it stands in a topic as it is. */
const PLAIN_LEVEL = /^[^\p{Cc}\p{Cs}#+/]+$/u;

export interface SafeName {
  /** The name as it may stand in a topic. */
  name: string;
  /** Whether it differs from what the device sent (the node then warns). */
  changed: boolean;
}

/**
 * `name` as topic levels: control characters removed, `#` and `+` replaced by `_`, cut to
 * MAX_NAME_LENGTH, empty levels dropped (so a path-like event name `/api/v1/room/layout` after the base
 * gives `base/api/v1/room/layout`, not `base//api/...`). `oneLevel`: a `/` becomes `_` too (a zone id
 * is one level: `base/+` must match every zone).
 */
export function safeTopicName(name: string, options: { oneLevel?: boolean } = {}): SafeName {
  // The usual case, asked for every event: one level, nothing to cut, remove or replace.
  if (name.length <= MAX_NAME_LENGTH && PLAIN_LEVEL.test(name)) return { name, changed: false };
  let safe = name.slice(0, MAX_NAME_LENGTH).replace(UNSAFE, '').replace(WILDCARDS, '_');
  if (options.oneLevel === true) safe = safe.replaceAll('/', '_');
  const levels = safe.split('/').filter((level) => level !== '');
  // Cut first, then cleaned: a pair cut in half at the end is cleaned too.
  const changed = name.length > MAX_NAME_LENGTH || safe !== name;
  return { name: levels.join('/'), changed };
}

/** `base/name`, or `name` alone when there is no base. */
export function joinTopic(base: string, name: string): string {
  if (base === '') return name;
  if (name === '') return base;
  return `${base}/${name}`;
}

/** How many different names are warned about; past it a hostile device could fill memory with names. */
const MAX_WARNED_NAMES = 100;

/**
 * Makes names safe and calls `warn` once per name that had to change (at most MAX_WARNED_NAMES names,
 * then once more to say that further ones are not told).
 */
export function topicNameGuard(
  warn: (original: string, safe: string) => void,
  warnMore: () => void,
): (name: string, options?: { oneLevel?: boolean }) => string {
  const warned = new Set<string>();
  let toldMore = false;
  return (name, options) => {
    const safe = safeTopicName(name, options);
    if (!safe.changed) return safe.name;
    // Only a cut name is remembered: a device that sends ever longer names must not fill the set.
    const remembered = name.slice(0, MAX_NAME_LENGTH + 1);
    if (warned.has(remembered)) return safe.name;
    if (warned.size < MAX_WARNED_NAMES) {
      warned.add(remembered);
      warn(name, safe.name);
    } else if (!toldMore) {
      toldMore = true;
      warnMore();
    }
    return safe.name;
  };
}

/**
 * A node's guard: warns in its catalogue's words (`errors.topicName`, `errors.topicNamesMore`), quoting
 * the start of the name as JSON, so the warning itself carries no control character and no 80,000
 * characters.
 */
export function nodeTopicNames(
  warn: (text: string) => void,
  t: Translate,
): (name: string, options?: { oneLevel?: boolean }) => string {
  return topicNameGuard(
    (original, safe) =>
      warn(
        t('errors.topicName', {
          name: JSON.stringify(original.slice(0, 60)),
          length: original.length,
          safe: JSON.stringify(safe.slice(0, 60)),
        }),
      ),
    () => warn(t('errors.topicNamesMore')),
  );
}
