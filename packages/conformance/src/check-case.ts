/**
 * One case against one observation: every expectation of the case is a check that holds, fails (with
 * what differed) or cannot be made (the loader has no such output). A case holds when every check it
 * could make held and it made at least one; it is "not supported" when it could make none.
 */
import path from "node:path";
import type { AdapterResult, CaseRun, Observation } from "./adapter.js";
import { markerLine, occurrences } from "./layouts.js";

/** The outcome of one case for one adapter. */
export type CaseStatus = "holds" | "fails" | "unsupported";

/** One case's result for one adapter. */
export interface CaseResult {
  slug: string;
  id: string;
  rule: string;
  source: string;
  status: CaseStatus;
  /** What differed (status "fails"), one line each. */
  failures: string[];
  /** Why the case could not run, or which expectations the loader has no output for. */
  notes: string[];
}

type Check = { ok: boolean; what: string } | { unchecked: string };

/** Checks `result` against `run.case.expect`. */
export async function checkCase(run: CaseRun, result: AdapterResult): Promise<CaseResult> {
  const c = run.case;
  const base = { slug: run.slug, id: c.id, rule: c.rule, source: c.source };
  if ("unsupported" in result) return { ...base, status: "unsupported", failures: [], notes: [result.unsupported] };
  const checks = await checksOf(run, result);
  const failures = checks.flatMap((k) => ("ok" in k && !k.ok ? [k.what] : []));
  const made = checks.filter((k) => "ok" in k).length;
  const notes = checks.flatMap((k) => ("unchecked" in k ? [k.unchecked] : []));
  const status: CaseStatus = failures.length > 0 ? "fails" : made > 0 ? "holds" : "unsupported";
  return { ...base, status, failures, notes };
}

async function checksOf(run: CaseRun, o: Observation): Promise<Check[]> {
  const e = run.case.expect;
  const checks: Check[] = [];
  const marker = (p: string) => markerLine(path.join(run.repo, p));
  const inSystem = (line: string | undefined) =>
    o.system !== undefined && line !== undefined && o.system.includes(line);
  const need = (
    field: keyof Observation,
    key: string,
    items: readonly string[] | undefined,
    make: () => Promise<Check[]> | Check[],
  ) =>
    items === undefined || items.length === 0
      ? []
      : o[field] === undefined
        ? [{ unchecked: `${key}: the loader has no ${field}` }]
        : make();

  if (
    (e.guidance ?? []).length > 0 &&
    o.guidance === undefined &&
    !(o.guidanceByText === true && o.system !== undefined)
  )
    checks.push({ unchecked: "guidance: the loader has no guidance" });
  else
    for (const p of e.guidance ?? []) {
      const ok = o.guidance?.includes(p) === true || (o.guidanceByText === true && inSystem(await marker(p)));
      checks.push({ ok, what: `${p} is always-on guidance` });
    }
  for (const p of e.guidanceAbsent ?? []) {
    if (o.guidance === undefined && o.system === undefined) {
      checks.push({ unchecked: "guidanceAbsent: the loader has no guidance or system" });
      break;
    }
    if (o.guidance !== undefined) checks.push({ ok: !o.guidance.includes(p), what: `${p} is not always-on guidance` });
    const line = await marker(p);
    if (o.system !== undefined && line !== undefined)
      checks.push({ ok: occurrences(o.system, line) === 0, what: `${p}'s text is not in the system prompt` });
  }
  checks.push(
    ...(await need("system", "guidanceOnce", e.guidanceOnce, async () => {
      const out: Check[] = [];
      for (const p of e.guidanceOnce ?? []) {
        const line = await marker(p);
        const n = line === undefined ? 0 : occurrences(o.system!, line);
        out.push({ ok: n === 1, what: `${p}'s text exactly once in the system prompt (found ${n})` });
      }
      return out;
    })),
  );
  const set = (items: readonly string[] | undefined) => new Set(items);
  const names = set(o.skills?.map((s) => s.name));
  const rules = set(o.pathRules);
  const diagnostics = set(o.diagnostics);
  const activated = set(o.activated);
  const each = (items: readonly string[] | undefined, ok: (x: string) => boolean, what: (x: string) => string) =>
    (items ?? []).map((x) => ({ ok: ok(x), what: what(x) }));
  checks.push(
    ...(await need("pathRules", "pathRules", e.pathRules, () =>
      each(
        e.pathRules,
        (p) => rules.has(p),
        (p) => `${p} is a path rule`,
      ),
    )),
    ...(await need("pathRules", "pathRulesAbsent", e.pathRulesAbsent, () =>
      each(
        e.pathRulesAbsent,
        (p) => !rules.has(p),
        (p) => `${p} is not a path rule`,
      ),
    )),
    ...(await need("skills", "skills", e.skills, () =>
      each(
        e.skills,
        (n) => names.has(n),
        (n) => `skill ${n} in the catalog`,
      ),
    )),
    ...(await need("skills", "skillsAbsent", e.skillsAbsent, () =>
      each(
        e.skillsAbsent,
        (n) => !names.has(n),
        (n) => `no skill ${n} in the catalog`,
      ),
    )),
    ...(await need("diagnostics", "diagnostics", e.diagnostics, () =>
      each(
        e.diagnostics,
        (d) => diagnostics.has(d),
        (d) => `diagnostic ${d}`,
      ),
    )),
    ...(await need("diagnostics", "diagnosticsAbsent", e.diagnosticsAbsent, () =>
      each(
        e.diagnosticsAbsent,
        (d) => !diagnostics.has(d),
        (d) => `no diagnostic ${d}`,
      ),
    )),
    ...(await need("activated", "activated", e.activated, () =>
      each(
        e.activated,
        (p) => activated.has(p),
        (p) => `${p} is attached by the played step`,
      ),
    )),
    ...(await need("activated", "activatedAbsent", e.activatedAbsent, () =>
      each(
        e.activatedAbsent,
        (p) => !activated.has(p),
        (p) => `${p} is not attached by the played step`,
      ),
    )),
  );
  return checks;
}
