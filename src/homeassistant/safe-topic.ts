/** The check of a configured topic, apart from ./ids (which hashes with node:crypto) so that editors can use it. */

const SAFE_LEVEL = /^[A-Za-z0-9_-]+$/;

/** Whether every level of `topic` is a safe id: a configured base topic or discovery prefix. */
export function isSafeTopic(topic: string): boolean {
  return topic !== '' && topic.split('/').every((level) => SAFE_LEVEL.test(level));
}
