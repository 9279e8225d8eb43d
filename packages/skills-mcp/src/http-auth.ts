/**
 * Bearer-token authentication of the skill server's HTTP endpoint, as the MCP authorization
 * specification (2025-06-18, "Access Token Usage" and "Authorization Server Location") asks of a
 * resource server: the token comes in `Authorization: Bearer <token>` on every request, never in the
 * query string, and a request without a valid one is answered 401 with a `WWW-Authenticate: Bearer`
 * challenge (RFC 6750 section 3) that names the protected resource metadata (RFC 9728 section 5.1)
 * when the server publishes one.
 * https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2025-06-18/basic/authorization.mdx
 *
 * Static tokens are compared in constant time by construction: the presented token and every
 * configured one are reduced to SHA-256 digests (same length whatever the input) and compared with
 * `crypto.timingSafeEqual`, against every token with no early exit, so neither a token's length nor
 * its first differing byte nor which token matched shows in the time taken.
 */
import type { IncomingMessage } from "node:http";
// node:crypto directly: this module loads only when HTTP is served, never on a context's cold start.
import { createHash, timingSafeEqual } from "node:crypto";
import { invalidOption } from "@skillctx/core/internal";

/** Where an endpoint's OAuth 2.1 authorization server is (RFC 9728 protected resource metadata). */
export interface ResourceMetadata {
  /** The endpoint's canonical URL as clients reach it (behind the load balancer), e.g. `https://skills.example.com/mcp`. */
  resource: string;
  /** The authorization servers that issue tokens for it (at least one). */
  authorizationServers: readonly string[];
  /** Scopes a client may ask for. */
  scopesSupported?: readonly string[] | undefined;
}

/** Authentication of {@link serveSkillsHttp}: static tokens, a host's check, or both (either passing admits). */
export interface HttpAuthOptions {
  /** Accepted bearer tokens; several at once let tokens be rotated without a gap. */
  tokens?: readonly string[] | undefined;
  /**
   * The host's own check of a bearer token (an OAuth 2.1 resource server: verify a JWT's signature,
   * issuer, expiry and audience, or introspect it). Called only when no static token matched.
   */
  verify?: ((token: string, request: IncomingMessage) => boolean | Promise<boolean>) | undefined;
  /** Published at `/.well-known/oauth-protected-resource<path>` and named in every 401. */
  resourceMetadata?: ResourceMetadata | undefined;
}

/** The path of the protected resource metadata document for `resource` (RFC 9728 section 3.1). */
export function resourceMetadataPath(resource: string): string {
  const url = new URL(resource);
  return `/.well-known/oauth-protected-resource${url.pathname === "/" ? "" : url.pathname}`;
}

/** A checker of `Authorization` headers built once from the options. */
export interface BearerCheck {
  /** Whether the request carries an accepted token. */
  admits(request: IncomingMessage): Promise<"ok" | "missing" | "invalid">;
  /** The `WWW-Authenticate` value of a 401. */
  challenge(result: "missing" | "invalid"): string;
  /** The metadata document and the path it is served at, when configured. */
  metadata: { path: string; body: string } | undefined;
}

/**
 * The checker for `options`, or undefined when no authentication is configured (`auth` unset). The one
 * check of every way authentication reaches the server (the CLI's token file and variable end here too):
 * it fails closed, so an `auth` that names no usable token and no verify function refuses to start.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for auth that is not an object, an empty token list with no
 * verify function, a token that is not a b64token, a verify that is not a function, or metadata without
 * an authorization server.
 */
export function bearerCheck(options: HttpAuthOptions | undefined): BearerCheck | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null)
    throw invalidOption("auth", "an object", { got: { value: options } });
  const given: unknown = options.tokens ?? [];
  if (!Array.isArray(given)) throw invalidOption("auth.tokens", "an array of strings", { got: { value: given } });
  const tokens = given as unknown[];
  if (options.verify !== undefined && typeof options.verify !== "function")
    throw invalidOption("auth.verify", "a function", { got: { value: options.verify } });
  if (tokens.length === 0 && options.verify === undefined)
    throw invalidOption("auth", "at least one token or a verify function (fails closed: no token, no start)");
  // RFC 6750 section 2.1: a bearer token is a b64token.
  if (tokens.some((t) => typeof t !== "string" || !/^[A-Za-z0-9\-._~+/]+=*$/.test(t)))
    throw invalidOption("auth.tokens", "RFC 6750 b64tokens (letters, digits, -._~+/, trailing =)");
  const digests = (tokens as string[]).map(digest);
  const meta = options.resourceMetadata;
  if (meta !== undefined && meta.authorizationServers.length === 0)
    throw invalidOption("auth.resourceMetadata.authorizationServers", "at least one authorization server");
  const metadata =
    meta === undefined
      ? undefined
      : {
          path: resourceMetadataPath(meta.resource),
          body: JSON.stringify({
            resource: meta.resource,
            authorization_servers: meta.authorizationServers,
            bearer_methods_supported: ["header"],
            ...(meta.scopesSupported !== undefined && { scopes_supported: meta.scopesSupported }),
          }),
        };
  const metadataUrl = meta === undefined ? undefined : new URL(metadata!.path, meta.resource).href;
  return {
    metadata,
    async admits(request) {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) return "missing";
      const presented = digest(token);
      let matched = false;
      // Every token is compared, match or not: the time does not say which one, or whether any, matched.
      for (const known of digests) matched = timingSafeEqual(presented, known) || matched;
      if (matched) return "ok";
      if (options.verify !== undefined && (await options.verify(token, request)) === true) return "ok";
      return "invalid";
    },
    challenge(result) {
      const params = ['realm="skillctx"'];
      if (metadataUrl !== undefined) params.push(`resource_metadata="${metadataUrl}"`);
      if (result === "invalid") params.push('error="invalid_token"');
      return `Bearer ${params.join(", ")}`;
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
