/**
 * The device's own explanation inside an error answer, read from whatever shape its firmware used
 * (docs/device-api.md, Error shapes): `{errors:[{message}]}`, problem details, plain text, an HTML page's title.
 */

const MAX_DEVICE_MESSAGE_LENGTH = 200;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  return text.length > 0 ? text : undefined;
}

function shorten(text: string): string {
  return text.length <= MAX_DEVICE_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_DEVICE_MESSAGE_LENGTH - 1)}…`;
}

function decodeHtmlEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return named[name.toLowerCase()] ?? entity;
  });
}

/** `{errors:[{message}]}`: the shape most endpoints use. */
function messageFromErrorsArray(body: Record<string, unknown>): string | undefined {
  if (!Array.isArray(body.errors)) return undefined;
  const messages = body.errors
    .map((entry) => (isRecord(entry) ? nonEmptyText(entry.message) : nonEmptyText(entry)))
    .filter((message): message is string => message !== undefined);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/** Problem details: `{title, problems:[{title, details}]}`; the problems say more than the title. */
function messageFromProblemDetails(body: Record<string, unknown>): string | undefined {
  const problems = Array.isArray(body.problems)
    ? body.problems
        .filter(isRecord)
        .map((problem) => {
          const title = nonEmptyText(problem.title);
          const details = nonEmptyText(problem.details) ?? nonEmptyText(problem.detail);
          if (title && details && title !== details) return `${title}: ${details}`;
          return title ?? details;
        })
        .filter((text): text is string => text !== undefined)
    : [];
  const title = nonEmptyText(body.title);
  if (problems.length === 0) return title ?? nonEmptyText(body.detail);
  const joined = problems.join('; ');
  return title && !joined.startsWith(title) ? `${title}: ${joined}` : joined;
}

function messageFromObject(body: Record<string, unknown>): string | undefined {
  return (
    messageFromErrorsArray(body) ??
    messageFromProblemDetails(body) ??
    nonEmptyText(body.message) ??
    nonEmptyText(body.error)
  );
}

function messageFromText(text: string, contentType: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0) return undefined;
  if (/html/i.test(contentType) || /^<(?:!doctype|html|head|body)/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const readable = title === undefined ? undefined : nonEmptyText(decodeHtmlEntities(title));
    return readable === undefined ? undefined : shorten(readable);
  }
  if (/json/i.test(contentType) || /^[{[]/.test(trimmed)) {
    try {
      return deviceMessageFrom(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  const plain = nonEmptyText(trimmed);
  return plain === undefined ? undefined : shorten(plain);
}

/**
 * The device's own explanation inside an error answer, whatever shape the firmware used:
 * `{errors:[{message}]}`, problem details, plain text, the <title> of an HTML page. Undefined when there is none.
 */
export function deviceMessageFrom(body: unknown, contentType = ''): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return messageFromText(body, contentType);
  if (Buffer.isBuffer(body)) return messageFromText(body.toString('utf8'), contentType);
  if (Array.isArray(body)) {
    const messages = body
      .map((entry) => deviceMessageFrom(entry))
      .filter((message): message is string => message !== undefined);
    return messages.length > 0 ? shorten(messages.join('; ')) : undefined;
  }
  if (isRecord(body)) {
    const message = messageFromObject(body);
    return message === undefined ? undefined : shorten(message);
  }
  return undefined;
}

/** "(device said: ...)" or "(HTTP 404)" to finish a message. */
export function deviceSaid(statusCode: number, deviceMessage: string | undefined): string {
  return deviceMessage === undefined
    ? `(HTTP ${statusCode})`
    : `(HTTP ${statusCode}; device said: ${deviceMessage})`;
}

/** The device limits requests: 429, or 409 with "too many requests" (docs/device-api.md, Rate limits). */
export function isRateLimited(statusCode: number, deviceMessage: string | undefined): boolean {
  if (statusCode === 429) return true;
  return statusCode === 409 && deviceMessage !== undefined && /too many|rate.?limit/i.test(deviceMessage);
}

export function isUnsupportedDevice(deviceMessage: string | undefined): boolean {
  return deviceMessage !== undefined && /unsupported|not supported/i.test(deviceMessage);
}
