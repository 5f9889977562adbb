/** Reading what a device answers: limits every answer body and event must keep. */

/** Deeper than any device answer; a message nested far deeper crashes Node-RED when it is cloned. */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests objects and arrays deeper than `limit`, strings skipped; one pass, no parse. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}
