import type { Diagnostic, Skill } from "@skillctx/core";

/** Who must have signed a skill folder (sigstore identities), and the trusted root to check against. */
export interface VerifySettings {
  /** Accepted signers: the OIDC issuer and the certificate subject (an email or a workflow URI). */
  identities: { issuer: string; subject: string }[];
  /** A trusted root (JSON of the sigstore TrustedRoot message) instead of the public-good instance's. */
  trustedRoot?: unknown;
  /** Which skills must be signed. @default "remote": skills of remote sources */
  scope?: "remote" | "all";
}

/**
 * Keeps the skills whose folder carries a valid sigstore bundle over its digest from one of the
 * accepted identities; every other skill in `settings.scope` is left out with a diagnostic.
 * SCAFFOLD (owner: the signatures helper): keeps every skill.
 */
export async function verifySignatures(skills: readonly Skill[], _settings: VerifySettings | undefined, _diagnostics: Diagnostic[], _signal?: AbortSignal): Promise<Skill[]> {
  return [...skills];
}
