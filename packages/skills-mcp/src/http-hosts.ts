/**
 * Which `Host` and `Origin` headers the skill server's HTTP endpoint accepts (DNS rebinding). The allowed
 * set is decided from the bound address, not from a list of spellings: every name is reduced to the
 * WHATWG URL parser's canonical host (`127.1`, `0x7f.1` and `2130706433` are `127.0.0.1`;
 * `::ffff:127.0.0.1` is `[::ffff:7f00:1]`), and loopback is a subnet test (127.0.0.0/8, ::1, and IPv4
 * mapped into IPv6), so `--host 127.0.0.2` or `--host ::ffff:127.0.0.1` is guarded like `127.0.0.1`.
 */
import { BlockList, isIP } from "node:net";
import { SkillctxError } from "@skillctx/core";
import { httpUrl } from "@skillctx/core/internal";

/** What the endpoint checks `Host` and `Origin` against. */
export interface HostPolicy {
  /** Canonical host names accepted (empty with `check: false`). */
  readonly allowed: ReadonlySet<string>;
  /** Whether the headers are checked at all: on a loopback address, or when names were configured. */
  readonly check: boolean;
}

let loopbackNets: BlockList | undefined;

/** Whether `address` (an IP literal, bracketed or not, or `localhost`) is a loopback address. */
export function isLoopbackHost(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const lower = bare.toLowerCase();
  if (lower === "localhost" || lower === "localhost.") return true;
  const family = isIP(bare);
  if (family === 0) return false;
  if (loopbackNets === undefined) {
    loopbackNets = new BlockList();
    loopbackNets.addSubnet("127.0.0.0", 8, "ipv4");
    loopbackNets.addAddress("::1", "ipv6");
  }
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 subnet.
  return loopbackNets.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The policy of an endpoint bound to `bound`: on a loopback address, the bound address (canonical form)
 * and `localhost`; plus every name in `extra` (a reverse proxy's or load balancer's public name). Off
 * loopback and without `extra`, nothing is checked (the operator put it on the network; tokens guard it).
 *
 * @throws SkillctxError `INVALID_OPTIONS` for a configured name that is not a host name or address (the
 * fuzzer found `""` threw a bare TypeError).
 */
export function hostPolicy(bound: string, extra: readonly string[] = []): HostPolicy {
  const loopback = isLoopbackHost(bound);
  const allowed = new Set<string>();
  for (const name of extra) {
    const canonical = canonicalHost(name);
    if (canonical === undefined)
      throw new SkillctxError("INVALID_OPTIONS", `allowedHosts: not a host name: ${JSON.stringify(name)}`);
    allowed.add(canonical);
  }
  if (loopback || allowed.size > 0) {
    const own = canonicalHost(bound);
    if (own !== undefined) allowed.add(own);
    if (loopback) allowed.add("localhost");
  }
  return { allowed, check: loopback || allowed.size > 0 };
}

/**
 * Whether a request's `Host` header passes: its host part (the port is not the attacker's to choose on
 * our name, and a load balancer's port differs from ours) must be an allowed canonical name.
 */
export function hostAllowed(policy: HostPolicy, header: string | undefined): boolean {
  if (!policy.check) return true;
  if (header === undefined) return false;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(header);
  if (match === null) return false;
  const canonical = canonicalHost(match[1]!);
  return canonical !== undefined && policy.allowed.has(canonical);
}

/** Whether a request's `Origin` header passes: absent (not a browser), or an http(s) origin on an allowed name. */
export function originAllowed(policy: HostPolicy, origin: string | undefined): boolean {
  if (!policy.check || origin === undefined) return true;
  const url = httpUrl(origin);
  return url !== undefined && policy.allowed.has(stripDot(url.hostname));
}

/** `name`'s canonical host (lower case, IPs normalised, IPv6 bracketed, no trailing dot), or undefined. */
export function canonicalHost(name: string): string | undefined {
  if (!/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]+|[A-Za-z0-9.-]+)$/.test(name)) return undefined;
  const literal = isIP(name) === 6 ? `[${name}]` : name;
  try {
    const url = new URL(`http://${literal}/`);
    return url.hostname === "" ? undefined : stripDot(url.hostname);
  } catch {
    return undefined;
  }
}

function stripDot(hostname: string): string {
  return hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
}
