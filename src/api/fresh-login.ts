import { DeviceError } from '../errors';
import type { Answer } from './bodies';
import { deviceMessageFrom } from './device-message';
import type { Session } from './session';

/**
 * Sends with the session's token. A device forgets tokens (reboot, password change), so a 401 gets one
 * fresh login and one retry, for requests and streams alike; `release` frees the refused answer first.
 * Hands back the last answer, a 401 included, and the token it was sent with.
 */
export async function sendWithFreshLogin<R extends { statusCode: number }>(
  session: Session,
  send: (token: string) => Promise<R>,
  release: (refused: R) => Promise<unknown>,
): Promise<{ response: R; token: string }> {
  // Not awaiting a token already held spares every read a trip through the microtask queue (bench/overhead).
  let token = session.token ?? (await session.ensureToken());
  let response = await send(token);
  if (response.statusCode === 401) {
    await release(response);
    session.forget(token);
    token = await session.ensureToken();
    response = await send(token);
  }
  return { response, token };
}

/** A 401 for a token fresh from a login: AUTH_FAILED, and logins wait when it keeps happening. */
export function refusedAfterLogin(
  session: Session,
  token: string,
  what: string,
  answer: Answer,
  redact: (text: string | undefined) => string | undefined,
): DeviceError {
  session.forget(token);
  const deviceMessage = redact(deviceMessageFrom(answer.text, answer.contentType));
  return (
    session.refusedFreshToken() ??
    new DeviceError(
      'AUTH_FAILED',
      `The device refused account '${session.account}' for ${what} even right after a fresh login` +
        (deviceMessage === undefined ? ' (HTTP 401)' : ` (device said: ${deviceMessage})`),
      { statusCode: 401, ...(deviceMessage === undefined ? {} : { deviceMessage }) },
    )
  );
}
