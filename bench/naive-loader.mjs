// The naive loader the benchmarks compare against: a recursive readdir, every SKILL.md read whole and
// parsed with gray-matter, bodies kept, as such loaders do. Used by the fresh-process scripts
// (scan-fresh.mjs, cold-start-child.mjs, peers-child.mjs). A fresh options object goes to every gray-matter call: it
// caches results by content only when called without options, which would flatter repeated runs.
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** readdirSync + readFileSync + gray-matter. */
export function naiveSync(matter, root) {
  const skills = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "SKILL.md") skills.push(entryOf(matter(readFileSync(full, "utf8"), {})));
    }
  };
  walk(root);
  return skills;
}

/** fs/promises readdir + readFile + gray-matter, the entries of each folder in parallel (as such loaders are usually written). */
export async function naiveAsync(matter, root) {
  const skills = [];
  const walk = async (folder) => {
    const entries = await readdir(folder, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const full = join(folder, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name === "SKILL.md") skills.push(entryOf(matter(await readFile(full, "utf8"), {})));
      }),
    );
  };
  await walk(root);
  return skills;
}

function entryOf(parsed) {
  return { name: parsed.data.name, description: parsed.data.description, content: parsed.content };
}

/**
 * The catalog such a loader builds: the skills sorted by name, one `- name: description` line each.
 * Returns how many skills it lists; throws on an empty catalog (a run that found nothing measured nothing).
 */
export function naiveCatalog(skills) {
  skills.sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0));
  const text = skills.map((s) => `- ${String(s.name)}: ${String(s.description)}`).join("\n");
  if (text.length === 0) throw new Error("empty catalog");
  return skills.length;
}
