// Test helper: a sigstore instance on 127.0.0.1 (Fulcio CA + CT log + Rekor from @sigstore/mock, served
// over real HTTP), its trusted root as JSON, and signing of a skill folder's digest with @sigstore/sign.
import { createHash, generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { bundleToJSON } from "@sigstore/bundle";
import { fulcioHandler, initializeCA, initializeCTLog, initializeTLog, rekorHandler } from "@sigstore/mock";
import { FulcioSigner, MessageSignatureBundleBuilder, RekorWitness } from "@sigstore/sign";
import { listSkillFiles } from "@skillctx/core/internal";
import { SIGNATURE_BUNDLE_FILE } from "../../packages/sources/src/verify-signatures.js";

export interface SigstoreInstance {
  url: string;
  /** The instance's TrustedRoot, JSON form (as `trusted_root.json`). */
  trustedRoot: Record<string, unknown>;
  /** Signs `message` as `identity`; returns the bundle's JSON. */
  sign(message: string, identity: { issuer: string; subject: string }): Promise<unknown>;
  close(): Promise<void>;
}

const LONG_AGO = "2020-01-01T00:00:00.000Z";

/** Starts a test instance on 127.0.0.1. */
export async function startSigstoreInstance(): Promise<SigstoreInstance> {
  const keyPair = () => generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ctLog = await initializeCTLog(keyPair());
  const ca = await initializeCA(keyPair(), ctLog);
  const handlers = new Map<
    string,
    (body: string) => Promise<{ statusCode: number; response: string | ArrayBufferView; contentType?: string }>
  >();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const handler = req.method === "POST" ? handlers.get(req.url ?? "") : undefined;
      if (handler === undefined) {
        res.writeHead(404).end();
        return;
      }
      handler(Buffer.concat(chunks).toString("utf8")).then(
        ({ statusCode, response, contentType }) => {
          res.writeHead(statusCode, { "content-type": contentType ?? "text/plain" });
          res.end(
            typeof response === "string"
              ? response
              : Buffer.from(response.buffer, response.byteOffset, response.byteLength),
          );
        },
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tlog = await initializeTLog(url, keyPair());
  for (const handler of [fulcioHandler(ca), rekorHandler(tlog)]) handlers.set(handler.path, handler.fn);

  const b64 = (bytes: ArrayBufferView | Buffer) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  const trustedRoot = {
    mediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
    tlogs: [
      {
        baseUrl: url,
        hashAlgorithm: "SHA2_256",
        publicKey: {
          rawBytes: b64(tlog.publicKey),
          keyDetails: "PKIX_ECDSA_P256_SHA_256",
          validFor: { start: LONG_AGO },
        },
        logId: { keyId: createHash("sha256").update(tlog.publicKey).digest("base64") },
      },
    ],
    certificateAuthorities: [
      {
        subject: { organization: "test", commonName: "test" },
        uri: url,
        certChain: { certificates: [{ rawBytes: b64(ca.rootCertificate) }] },
        validFor: { start: LONG_AGO },
      },
    ],
    ctlogs: [
      {
        baseUrl: url,
        hashAlgorithm: "SHA2_256",
        publicKey: {
          rawBytes: b64(ctLog.publicKey),
          keyDetails: "PKIX_ECDSA_P256_SHA_256",
          validFor: { start: LONG_AGO },
        },
        logId: { keyId: b64(ctLog.logID) },
      },
    ],
    timestampAuthorities: [],
  };

  return {
    url,
    trustedRoot,
    async sign(message, identity) {
      const token = fakeToken({
        iss: identity.issuer,
        sub: identity.subject,
        email: identity.subject,
        email_verified: true,
      });
      const signer = new FulcioSigner({ fulcioBaseURL: url, identityProvider: { getToken: async () => token } });
      const builder = new MessageSignatureBundleBuilder({
        signer,
        witnesses: [new RekorWitness({ rekorBaseURL: url })],
      });
      return bundleToJSON(await builder.create({ data: Buffer.from(message, "utf8") }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Signs the folder digest of `dir` (the bundle file left out) and writes the bundle into it; returns the digest. */
export async function signSkillFolder(
  instance: SigstoreInstance,
  dir: string,
  identity: { issuer: string; subject: string },
): Promise<string> {
  const listing = await listSkillFiles(dir, { skip: (relative) => relative === SIGNATURE_BUNDLE_FILE });
  const bundle = await instance.sign(listing.digest, identity);
  await writeFile(path.join(dir, SIGNATURE_BUNDLE_FILE), JSON.stringify(bundle));
  return listing.digest;
}

// An OIDC token as Fulcio's mock reads it (the mock decodes, it does not check the signature).
function fakeToken(claims: Record<string, string | boolean>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ ...claims, aud: "sigstore", exp: Math.floor(Date.now() / 1000) + 600 })}.sig`;
}
