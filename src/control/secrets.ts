/**
 * The admin's enrollment code (which is also the admin's default password) is in the hardware answer of
 * an admin account. It is a secret: every state value is passed through here before anyone sees it.
 */
export const SECRET_FIELDS: readonly string[] = ['enrollmentCode'];

/** A copy of `value` with every secret field removed, at any depth. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (!SECRET_FIELDS.includes(name)) copy[name] = withoutSecrets(item);
  }
  return copy as T;
}
