/** Where a fetched URL leads: the public network, or this machine and its local network (asked about first). */
export type FetchTargetKind = 'public' | 'local';

/** A URL `fetch_url` may read, with where it leads. */
export interface FetchTarget {
  url: URL;
  kind: FetchTargetKind;
}

/** How an IP address is treated: `refused` for link-local (cloud metadata services), unspecified, multicast and reserved ranges. */
export type AddressKind = FetchTargetKind | 'refused';

/**
 * Checks a URL before `fetch_url` reads it (and each redirect target): only `http:` and
 * `https:`, no user name or password in it, and no host that is a link-local, unspecified,
 * multicast or reserved address. A loopback, private or other not globally reachable address
 * (see `addressKind`), or a `localhost` name, is `local` (the tool asks first whatever the
 * approval policy). Throws an `Error` saying what
 * is wrong in the user's words.
 */
export function checkFetchUrl(text: string): FetchTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text.slice(0, 200)}" is not a URL: give a full address such as https://example.com/page.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`fetch_url reads only http:// and https:// addresses, not "${url.protocol}" ones.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error('fetch_url does not send credentials: remove the user name and password from the address.');
  }
  const host = url.hostname.toLowerCase();
  const literal = host.startsWith('[') ? host.slice(1, -1) : isIpv4(host) ? host : undefined;
  if (literal !== undefined) {
    const kind = addressKind(literal);
    if (kind === 'refused') throw new Error(`fetch_url does not read from ${host}: link-local, unspecified, multicast and reserved addresses are refused.`);
    return { url, kind };
  }
  return { url, kind: host === 'localhost' || host.endsWith('.localhost') ? 'local' : 'public' };
}

/** `checkFetchUrl` for `to`, where `from` redirected: a refusal says where the redirect came from. */
export function checkRedirectTarget(from: string, to: string): FetchTarget {
  try {
    return checkFetchUrl(to);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`${from} redirected to ${to.slice(0, 500)}, which was refused: ${why}`, { cause: error });
  }
}

/**
 * How `fetch_url` treats the IP address `address` (dotted IPv4, or IPv6 without brackets),
 * after the IANA IPv4 and IPv6 special-purpose address registries: loopback, private
 * (RFC 1918, shared 100.64/10, IPv6 unique-local) and every other range the registries mark
 * as not globally reachable (IETF protocol assignments 192.0.0/24 and 2001::/23,
 * documentation, benchmarking 198.18/15 (fake-IP DNS of local proxies), the 6to4 relay
 * 192.88.99/24, discard-only 100::/64, SRv6 5f00::/16, site-local fec0::/10, SIIT
 * ::ffff:0:a.b.c.d and local-use NAT64 64:ff9b:1::/48) are `local`; link-local (169.254/16,
 * fe80::/10), unspecified, multicast and reserved (240/4) are `refused`; an IPv4-mapped
 * IPv6 address, NAT64 64:ff9b::/96 and 6to4 2002::/16 are judged as the IPv4 address they
 * carry (SIIT and local-use NAT64 are `local` at the least); anything else is `public`.
 * Text that is no address is `refused`.
 */
export function addressKind(address: string): AddressKind {
  if (isIpv4(address)) return ipv4Kind(address.split('.').map(Number));
  const groups = ipv6Groups(address);
  if (!groups) return 'refused';
  const [first = 0, second = 0, third = 0, , , sixth = 0, seventh = 0, eighth = 0] = groups;
  const embedded = (high: number, low: number): AddressKind => ipv4Kind([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && sixth === 0xffff) return embedded(seventh, eighth);
  if (zeros(0, 7)) return eighth === 1 ? 'local' : 'refused';
  // The deprecated IPv4-compatible range (::a.b.c.d) is reserved; NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they embed.
  if (zeros(0, 6)) return 'refused';
  if (first === 0x64 && second === 0xff9b && zeros(2, 6)) return embedded(seventh, eighth);
  if (first === 0x2002) return embedded(second, third);
  // SIIT (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48, which may embed the IPv4 address elsewhere than
  // the last 32 bits) are translators run by the local network, not routes of the public one.
  const siit = zeros(0, 4) && groups[4] === 0xffff && sixth === 0;
  if (siit || (first === 0x64 && second === 0xff9b && third === 1)) return atLeastLocal(embedded(seventh, eighth));
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0) return 'local';
  if ((first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00) return 'refused';
  if (notGlobalIpv6(groups)) return 'local';
  return 'public';
}

/** `kind`, or `local` when it is `public`. */
function atLeastLocal(kind: AddressKind): AddressKind {
  return kind === 'public' ? 'local' : kind;
}

/** Whether the IPv6 address is in a range of the IANA special-purpose registry that is not globally reachable and not judged above. */
function notGlobalIpv6([first = 0, second = 0, third = 0, fourth = 0]: readonly number[]): boolean {
  return (
    (first === 0x100 && second === 0 && third === 0 && (fourth === 0 || fourth === 1)) || // discard-only 100::/64, dummy prefix 100:0:0:1::/64
    (first === 0x2001 && second < 0x200) || // IETF protocol assignments 2001::/23 (Teredo, benchmarking, ORCHID)
    (first === 0x2001 && second === 0xdb8) || // documentation 2001:db8::/32
    (first === 0x3fff && second < 0x1000) || // documentation 3fff::/20
    first === 0x5f00 // SRv6 SIDs 5f00::/16
  );
}

function isIpv4(text: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(text) && text.split('.').every((part) => Number(part) <= 255);
}

function ipv4Kind(octets: readonly number[]): AddressKind {
  const [a = 0, b = 0, c = 0] = octets;
  if (a === 0 || (a === 169 && b === 254) || a >= 224) return 'refused';
  if (a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'local';
  // The rest of the IANA registry's ranges that are not globally reachable: IETF protocol assignments, documentation
  // (TEST-NET-1, -2, -3), the deprecated 6to4 relay anycast, benchmarking.
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'local';
  if ((a === 192 && b === 88 && c === 99) || (a === 198 && (b === 18 || b === 19))) return 'local';
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or `undefined` when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const zoneless = text.split('%')[0] ?? '';
  let body = zoneless;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(zoneless);
  if (dotted) {
    const [, head = '', ipv4 = ''] = dotted;
    if (!isIpv4(ipv4)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    body = head.endsWith('::') ? head : head.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined): number[] | undefined => {
    if (part === undefined || part === '') return [];
    const groups = part.split(':');
    return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups.map((group) => parseInt(group, 16)) : undefined;
  };
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  if (!head || !rest) return undefined;
  const given = [...head, ...rest, ...tail];
  if (halves.length === 1) return given.length === 8 ? given : undefined;
  if (given.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - given.length).fill(0), ...rest, ...tail];
}
