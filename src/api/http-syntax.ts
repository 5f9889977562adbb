/**
 * The text forms a URL and HTTP headers accept: hosts (IPv4, IPv6, DNS names), header values and
 * tokens. Plain string checks with no Node.js API: the device editor runs them through
 * ./settings-rules.ts, and the client checks header values with them.
 */

const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII with inner spaces: safe as a header value. */
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const HOST_NAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const IPV4_PART = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IPV4 = new RegExp(`^${IPV4_PART}(?:\\.${IPV4_PART}){3}$`);

/** One HTTP token (RFC 9110): what a header name or an Authorization scheme may be. */
export function isHttpToken(value: string): boolean {
  return HTTP_TOKEN.test(value);
}

/** Printable ASCII with inner spaces only: safe to send as an HTTP header value. */
export function isHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}

export function isIPv4(host: string): boolean {
  return IPV4.test(host);
}

/** RFC 4291 text form, with an embedded IPv4 tail allowed; no zone index (./settings-rules.ts checkHost refuses one with its own message). */
export function isIPv6(host: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(host) || !host.includes(':')) return false;
  const halves = host.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string | undefined) => (half === undefined || half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const groups = [...head, ...tail];
  let count = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.')) {
    // An embedded IPv4 address is only allowed as the last 32 bits ("::ffff:1.2.3.4", not "1.2.3.4::").
    if (!IPV4.test(last) || host.endsWith(':')) return false;
    groups.pop();
    count += 1;
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** A DNS host name as RFC 1123 allows it; a trailing dot (fully qualified) is accepted. */
export function isHostName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  if (!labels.every((label) => HOST_NAME_LABEL.test(label))) return false;
  // URL parsers read a name whose last label is a number as an IPv4 address
  // ("999.1.1.1", "10.0.0"): such a host is a mistyped address, not a name.
  const last = labels[labels.length - 1] ?? '';
  return !/^(?:\d+|0x[0-9a-f]*)$/i.test(last);
}
