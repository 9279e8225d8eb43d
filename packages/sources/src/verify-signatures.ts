import { invalidOption, quotedChoices } from "@skillctx/core/internal";
import { MAX_SIGNATURE_BUNDLE_BYTES, MAX_TRUSTED_ROOT_BYTES } from "./limits.js";
import { ellipsizeUtf16, errorText } from "@skillctx/core/internal";
import * as path from "node:path";
import type { Diagnostic, Skill } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import { listSkillFiles, readTextFile } from "@skillctx/core/internal";
import { safeParseJson } from "@skillctx/core/internal";
import { takeVerifiedSnapshot } from "./verified-snapshot.js";

/** Who must have signed a skill folder (sigstore identities), and the trusted root to check against. */
export interface VerifySettings {
  /** Accepted signers: the OIDC issuer and the certificate subject (an email or a workflow URI). */
  identities: { issuer: string; subject: string }[];
  /**
   * A trusted root instead of the public-good instance's: the JSON of the sigstore `TrustedRoot`
   * message (as `trusted_root.json` holds it), parsed or as the path of that file.
   */
  trustedRoot?: unknown;
  /** Which skills must be signed. @default "remote": skills of remote sources */
  scope?: "remote" | "all";
  /**
   * Where the public-good root comes from when `trustedRoot` is not given (`@sigstore/tuf`): a TUF
   * mirror (a private instance's, or a local copy) and the folder its verified metadata is cached in.
   * @default { mirrorURL: "https://tuf-repo-cdn.sigstore.dev", cachePath: @sigstore/tuf's default }
   */
  tuf?: { mirrorURL?: string; cachePath?: string };
}

/**
 * The sigstore bundle a signed skill folder carries, at its top level. It is left out of the folder
 * digest it signs; the signed message is the UTF-8 text of that digest (`sha256:<hex>`).
 */
export const SIGNATURE_BUNDLE_FILE = "skill.sigstore.json";

/** The verifier, once built for a settings object (the trusted root is parsed or fetched once). */
type Checker = (bundleJson: unknown, message: Buffer) => { issuer: string | undefined; subject: string | undefined };

const checkers = new WeakMap<VerifySettings, Promise<Checker | string>>();

/**
 * Keeps the skills whose folder carries a valid sigstore bundle ({@link SIGNATURE_BUNDLE_FILE}) over
 * its folder digest, signed by one of the accepted identities; every other skill in `settings.scope`
 * is left out with a diagnostic naming the reason. Skills given as objects in code are the host's own
 * and are never checked. Without `settings`, every skill is kept.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for a malformed `sources.verify` option.
 */
export async function verifySignatures(
  skills: readonly Skill[],
  settings: VerifySettings | undefined,
  diagnostics: Diagnostic[],
  signal?: AbortSignal,
): Promise<Skill[]> {
  if (settings === undefined) return [...skills];
  checkSettings(settings);
  const scope = settings.scope ?? "remote";
  const inScope = (skill: Skill) =>
    skill.source.kind !== "inline" && (scope === "all" || skill.source.scope === "remote");
  if (!skills.some(inScope)) return [...skills];
  let pending = checkers.get(settings);
  if (pending === undefined) {
    pending = buildChecker(settings);
    checkers.set(settings, pending);
  }
  const checker = await pending;
  // A missing root or peer is tried again at the next load (installed since, network back).
  if (typeof checker === "string") checkers.delete(settings);
  signal?.throwIfAborted();
  const kept: Skill[] = [];
  for (const skill of skills) {
    if (!inScope(skill)) {
      kept.push(skill);
      continue;
    }
    const refusal = typeof checker === "string" ? checker : await checkSkill(skill, settings, checker, signal);
    if (refusal === undefined) {
      kept.push(skill);
      continue;
    }
    diagnostics.push(
      diagnostic("SIGNATURE_REFUSED", "error", `skill "${skill.name}" is not loaded: ${refusal}`, {
        path: skill.source.path,
      }),
    );
  }
  return kept;
}

function checkSettings(settings: VerifySettings): void {
  const identities: unknown = (settings as { identities?: unknown }).identities;
  const ok =
    Array.isArray(identities) &&
    identities.every(
      (i) =>
        typeof i === "object" &&
        i !== null &&
        typeof i.issuer === "string" &&
        i.issuer !== "" &&
        typeof i.subject === "string" &&
        i.subject !== "",
    );
  if (!ok) throw invalidOption("sources.verify.identities", "an array of { issuer, subject } with non-empty strings");
  if (settings.scope !== undefined && settings.scope !== "remote" && settings.scope !== "all") {
    throw invalidOption("sources.verify.scope", quotedChoices(["remote", "all"]));
  }
}

// Why the skill is refused, or undefined when its bundle verifies for an accepted identity.
async function checkSkill(
  skill: Skill,
  settings: VerifySettings,
  checker: Checker,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const dir = skill.dir;
  if (dir === undefined) return `it is a single file, with no folder to carry ${SIGNATURE_BUNDLE_FILE}`;
  const bundleFile = path.join(dir, SIGNATURE_BUNDLE_FILE);
  const read = await readTextFile(bundleFile, { maxBytes: MAX_SIGNATURE_BUNDLE_BYTES, root: dir, signal });
  if (!read.ok) {
    return read.code === "NOT_FOUND"
      ? `it is not signed (no ${SIGNATURE_BUNDLE_FILE} in its folder)`
      : `its ${SIGNATURE_BUNDLE_FILE} cannot be read: ${read.message}`;
  }
  const parsed = safeParseJson(read.text);
  if (!parsed.ok) return `its ${SIGNATURE_BUNDLE_FILE} is not JSON`;
  const json = parsed.value;
  const listing = await listSkillFiles(dir, {
    skip: (relative) => relative === SIGNATURE_BUNDLE_FILE,
    // The bytes digested are the bytes served: the body is taken from them (takeVerifiedSnapshot).
    withBytes: true,
    signal,
  });
  if (!listing.complete) {
    const why = listing.diagnostics[0]?.message ?? "a cap stopped the listing";
    return `its folder digest does not cover the whole folder (${why})`;
  }
  let signer: ReturnType<Checker>;
  try {
    signer = checker(json, Buffer.from(listing.digest, "utf8"));
  } catch (error) {
    return `its signature does not verify over the folder digest ${listing.digest}: ${shortError(error)}`;
  }
  const match = settings.identities.some((i) => i.issuer === signer.issuer && i.subject === signer.subject);
  if (match) return takeVerifiedSnapshot(skill, dir, listing, SIGNATURE_BUNDLE_FILE);
  return `it is signed by ${signer.subject ?? "an unknown subject"} (issuer ${signer.issuer ?? "unknown"}), which is not in verify.identities`;
}

// The peers are loaded on first use only; without them (or without a trusted root) every skill in
// scope is refused with the reason (a string) rather than loaded unchecked.
async function buildChecker(settings: VerifySettings): Promise<Checker | string> {
  let verify: typeof import("@sigstore/verify");
  let bundle: typeof import("@sigstore/bundle");
  try {
    [verify, bundle] = await Promise.all([import("@sigstore/verify"), import("@sigstore/bundle")]);
  } catch {
    return "signatures cannot be checked: install the optional peers @sigstore/verify and @sigstore/bundle";
  }
  const root = await trustedRoot(settings.trustedRoot, settings.tuf);
  if (typeof root === "string") return root;
  let verifier: InstanceType<typeof verify.Verifier>;
  try {
    verifier = new verify.Verifier(verify.toTrustMaterial(root as Parameters<typeof verify.toTrustMaterial>[0]));
  } catch (error) {
    return `the trusted root is not usable: ${shortError(error)}`;
  }
  return (bundleJson, message) => {
    const parsed = bundle.bundleFromJSON(bundleJson);
    if (!bundle.isBundleWithMessageSignature(parsed))
      throw new Error("the bundle holds a DSSE envelope, not a message signature over the digest");
    const signer = verifier.verify(verify.toSignedEntity(parsed, message));
    return { issuer: signer.identity?.extensions?.issuer, subject: signer.identity?.subjectAlternativeName };
  };
}

// The trusted root in the shape `toTrustMaterial` reads (protobuf-specs' TrustedRoot: bytes as
// Buffers, times as Dates), or why there is none.
async function trustedRoot(option: unknown, tufOptions: VerifySettings["tuf"]): Promise<unknown> {
  if (option === undefined) return publicGoodRoot(tufOptions);
  let json: unknown = option;
  if (typeof option === "string") {
    const read = await readTextFile(option, { maxBytes: MAX_TRUSTED_ROOT_BYTES });
    if (!read.ok) return `verify.trustedRoot cannot be read: ${read.message}`;
    const parsed = safeParseJson(read.text);
    if (!parsed.ok) return `verify.trustedRoot (${option}) is not JSON`;
    json = parsed.value;
  }
  try {
    return parseTrustedRoot(json);
  } catch (error) {
    return `verify.trustedRoot is not a sigstore TrustedRoot: ${shortError(error)}`;
  }
}

// The public-good instance's root comes the way the `sigstore` package gets it: `@sigstore/tuf`
// (TUF from tuf-repo-cdn.sigstore.dev, its seed root embedded, cached on disk). It is not bundled:
// a pinned trusted_root.json goes stale when keys rotate.
async function publicGoodRoot(options: VerifySettings["tuf"]): Promise<unknown> {
  let tuf: typeof import("@sigstore/tuf");
  try {
    tuf = await import("@sigstore/tuf");
  } catch {
    return "no trusted root: pass verify.trustedRoot (a trusted_root.json) or install @sigstore/tuf to use the public-good instance's";
  }
  try {
    return await tuf.getTrustedRoot({
      ...(options?.mirrorURL !== undefined && { mirrorURL: options.mirrorURL }),
      ...(options?.cachePath !== undefined && { cachePath: options.cachePath }),
      retry: 0,
      timeout: 10_000,
    });
  } catch (error) {
    return `the public-good trusted root could not be obtained through @sigstore/tuf: ${shortError(error)}`;
  }
}

/** Key types whose raw bytes are PKCS#1 rather than SPKI (protobuf-specs `PublicKeyDetails` numbers). */
const PKCS1_KEY_DETAILS: Record<string, number> = {
  PKCS1_RSA_PKCS1V5: 1,
  PKIX_RSA_PKCS1V5: 3,
  PKIX_RSA_PKCS1V15_2048_SHA256: 9,
  PKIX_RSA_PKCS1V15_3072_SHA256: 10,
  PKIX_RSA_PKCS1V15_4096_SHA256: 11,
};

/** Parses the JSON form of a TrustedRoot (the fields verification reads). Throws on a malformed one. */
export function parseTrustedRoot(json: unknown): unknown {
  const root = record(json, "the trusted root");
  const list = (key: string) => {
    const value = root[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new Error(`${key} is not an array`);
    return value;
  };
  const tlog = (value: unknown, where: string) => {
    const t = record(value, where);
    const key = record(t["publicKey"], `${where}.publicKey`);
    const logId = record(t["logId"], `${where}.logId`);
    const details =
      typeof key["keyDetails"] === "string"
        ? (PKCS1_KEY_DETAILS[key["keyDetails"]] ?? key["keyDetails"])
        : key["keyDetails"];
    return {
      baseUrl: typeof t["baseUrl"] === "string" ? t["baseUrl"] : "",
      logId: { keyId: bytes(logId["keyId"], `${where}.logId.keyId`) },
      ...(t["checkpointKeyId"] !== undefined && {
        checkpointKeyId: {
          keyId: bytes(record(t["checkpointKeyId"], where)["keyId"], `${where}.checkpointKeyId.keyId`),
        },
      }),
      publicKey: {
        rawBytes: bytes(key["rawBytes"], `${where}.publicKey.rawBytes`),
        keyDetails: details,
        validFor: timeRange(key["validFor"], `${where}.publicKey.validFor`),
      },
    };
  };
  const authority = (value: unknown, where: string) => {
    const a = record(value, where);
    const chain = record(a["certChain"], `${where}.certChain`);
    if (!Array.isArray(chain["certificates"])) throw new Error(`${where}.certChain.certificates is not an array`);
    return {
      certChain: {
        certificates: chain["certificates"].map((c: unknown, i: number) => ({
          rawBytes: bytes(record(c, where)["rawBytes"], `${where}.certChain.certificates[${i}]`),
        })),
      },
      validFor: timeRange(a["validFor"], `${where}.validFor`),
    };
  };
  return {
    tlogs: list("tlogs").map((t, i) => tlog(t, `tlogs[${i}]`)),
    ctlogs: list("ctlogs").map((t, i) => tlog(t, `ctlogs[${i}]`)),
    certificateAuthorities: list("certificateAuthorities").map((a, i) => authority(a, `certificateAuthorities[${i}]`)),
    timestampAuthorities: list("timestampAuthorities").map((a, i) => authority(a, `timestampAuthorities[${i}]`)),
  };
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  return value as Record<string, unknown>;
}

function bytes(value: unknown, where: string): Buffer {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) throw new Error(`${where} is not base64`);
  return Buffer.from(value, "base64");
}

function timeRange(value: unknown, where: string): { start?: Date; end?: Date } | undefined {
  if (value === undefined) return undefined;
  const range = record(value, where);
  const time = (v: unknown, key: string) => {
    if (v === undefined) return undefined;
    const date = typeof v === "string" ? new Date(v) : undefined;
    if (date === undefined || Number.isNaN(date.getTime())) throw new Error(`${where}.${key} is not a time`);
    return date;
  };
  const start = time(range["start"], "start");
  const end = time(range["end"], "end");
  return { ...(start !== undefined && { start }), ...(end !== undefined && { end }) };
}

// A sigstore error can carry a whole certificate; 300 UTF-16 units say why.
function shortError(error: unknown): string {
  return ellipsizeUtf16(errorText(error), 300);
}
