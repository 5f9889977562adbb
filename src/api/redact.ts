/** Keeping the password and the token out of every text a user can see, however a device quoted them. */

/**
 * A secret with characters written as JSON \uXXXX escapes, as a device's error body quoting the request
 * may write it: only those past ASCII (quotes and backslashes JSON-escaped), or every character, with
 * hex digits in either case. Code units, as JSON escapes a character beyond U+FFFF as a surrogate pair.
 */
function unicodeEscaped(secret: string, every: boolean, upper: boolean): string {
  let escaped = '';
  for (let index = 0; index < secret.length; index++) {
    const unit = secret.charCodeAt(index);
    if (!every && unit >= 0x20 && unit < 0x7f) {
      escaped += unit === 0x22 ? '\\"' : unit === 0x5c ? '\\\\' : secret.charAt(index);
      continue;
    }
    const hex = unit.toString(16).padStart(4, '0');
    escaped += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return escaped;
}

/** The ways a secret can stand in a text a device sends back, longest first. */
function spellings(secret: string): string[] {
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    unicodeEscaped(secret, false, false),
    unicodeEscaped(secret, false, true),
    unicodeEscaped(secret, true, false),
    unicodeEscaped(secret, true, true),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces each secret in a text; secrets shorter than 4 characters are too common to hunt for. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    for (const form of spellings(secret)) result = result.split(form).join('[redacted]');
  }
  return result;
}
