#!/usr/bin/env node
// `pnpm corpus`: fetches the real-world skills corpus (246 published skills from five collections, the
// table of ../shared/corpus/README.md) at its pinned commits into `.corpus/` (git-ignored), where the
// corpus tests and benchmarks find it (test/setup/corpus.ts). Needs git and network access.
//
//   node scripts/fetch-corpus.mjs [--out DIR] [--force]
//
// Each collection is fetched with `git fetch --depth 1 <url> <commit>` (git's argv, no shell); every folder
// that holds a SKILL.md is copied flat as `<collection>/<skill>/`, text files only (.md .txt .json .yaml
// .yml), without the skills that the corpus leaves out (source-available or unlicensed ones), plus the
// collection's license or README. `SKILLCTX_CORPUS_GIT_URL` overrides the clone address, with `{owner}`
// and `{name}` in it (for a mirror, e.g. `/srv/mirror/{owner}+{name}.git`).
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TEXT = /\.(md|txt|json|ya?ml)$/;

/** The five collections, as ../shared/corpus/README.md pins them. `top`: repository file → name in the collection folder. */
const COLLECTIONS = [
  {
    folder: "anthropics-skills",
    repo: "anthropics/skills",
    commit: "9d2f1ae187231d8199c64b5b762e1bdf2244733d",
    skills: 12,
    exclude: ["doc-coauthoring", "docx", "pdf", "pptx", "template", "xlsx"],
    top: { "README.md": "REPO-README.md" },
    license: "Apache-2.0, per skill (LICENSE.txt in each folder)",
  },
  {
    folder: "obra-superpowers",
    repo: "obra/superpowers",
    commit: "44c9b2d6e889982ac18c27d05a19fefe335194e1",
    skills: 14,
    exclude: [],
    top: { LICENSE: "LICENSE" },
    license: "MIT (LICENSE)",
  },
  {
    folder: "trailofbits-skills",
    repo: "trailofbits/skills",
    commit: "293fb74c3151cceda32a85a545fe8acd67f8f5c6",
    skills: 80,
    exclude: [],
    top: { LICENSE: "LICENSE" },
    license: "CC BY-SA 4.0 (LICENSE)",
  },
  {
    folder: "k-dense-claude-scientific-skills",
    repo: "K-Dense-AI/claude-scientific-skills",
    commit: "899a51bfbd63218153b272c9459dcb4a7ae88da6",
    skills: 130,
    exclude: ["docx", "pdf", "pptx", "xlsx"],
    top: { "LICENSE.md": "LICENSE.md" },
    license: "MIT (LICENSE.md)",
  },
  {
    folder: "openai-skills",
    repo: "openai/skills",
    commit: "f6b8344b4e519f964d8884d6f60b57991f3f4993",
    skills: 10,
    exclude: [],
    top: { "README.md": "REPO-README.md" },
    license: "per skill (LICENSE.txt): Apache-2.0 or MIT",
  },
];

function main(argv) {
  let out = path.join(ROOT, ".corpus");
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--out" && argv[i + 1]) out = path.resolve(argv[++i]);
    else if (argv[i] === "--force") force = true;
    else {
      console.error("usage: node scripts/fetch-corpus.mjs [--out DIR] [--force]");
      return 2;
    }
  }
  const stamp = `${COLLECTIONS.map((c) => `${c.repo}@${c.commit}`).join("\n")}\n`;
  const stampFile = path.join(out, ".pinned");
  if (!force && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
    console.log(`corpus: already at the pinned commits in ${out} (--force fetches again)`);
    return 0;
  }

  const work = mkdtempSync(path.join(tmpdir(), "skillctx-corpus-"));
  const staging = `${out}.partial-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    let total = 0;
    for (const c of COLLECTIONS) {
      const n = fetchCollection(c, path.join(work, c.folder), path.join(staging, c.folder));
      console.log(`corpus: ${c.folder}: ${n} skills (${c.repo}@${c.commit.slice(0, 12)})`);
      total += n;
    }
    writeFileSync(path.join(staging, "README.md"), readme());
    writeFileSync(path.join(staging, ".pinned"), stamp);
    rmSync(out, { recursive: true, force: true });
    renameSync(staging, out);
    console.log(`corpus: ${total} skills in ${out}`);
    return 0;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    console.error(`corpus: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Fetches one collection at its commit into `checkout` and copies its skills into `dest`; returns the number of skills. */
function fetchCollection(c, checkout, dest) {
  const [owner, name] = c.repo.split("/");
  const url = (process.env["SKILLCTX_CORPUS_GIT_URL"] ?? "https://github.com/{owner}/{name}.git")
    .replaceAll("{owner}", owner)
    .replaceAll("{name}", name);
  mkdirSync(checkout, { recursive: true });
  git(checkout, "init", "--quiet");
  git(checkout, "fetch", "--quiet", "--depth", "1", "--no-tags", url, c.commit);
  git(checkout, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", c.commit);

  // Folders that hold a SKILL.md at the commit, by their path in the repository (regular files only).
  const listing = git(checkout, "ls-tree", "-r", "-z", "--full-tree", c.commit)
    .split("\0")
    .filter(Boolean)
    .map((line) => ({ mode: line.slice(0, line.indexOf(" ")), file: line.slice(line.indexOf("\t") + 1) }))
    .filter((e) => e.mode === "100644" || e.mode === "100755");
  const skillDirs = listing
    .filter((e) => path.posix.basename(e.file) === "SKILL.md")
    .map((e) => path.posix.dirname(e.file));
  const kept = new Map();
  for (const dir of skillDirs) {
    const skill = path.posix.basename(dir);
    if (c.exclude.includes(skill)) continue;
    if (kept.has(skill)) throw new Error(`${c.repo}: two skills named ${skill} (${kept.get(skill)}, ${dir})`);
    kept.set(skill, dir);
  }
  if (kept.size !== c.skills) throw new Error(`${c.repo}@${c.commit}: ${kept.size} skills, expected ${c.skills}`);

  for (const [skill, dir] of kept) {
    for (const { file } of listing) {
      if (!file.startsWith(`${dir}/`) || !TEXT.test(file)) continue;
      const target = path.join(dest, skill, ...file.slice(dir.length + 1).split("/"));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(checkout, ...file.split("/")), target);
    }
  }
  for (const [from, to] of Object.entries(c.top)) copyFileSync(path.join(checkout, from), path.join(dest, to));
  if (readdirSync(dest).length < c.skills) throw new Error(`${c.repo}: copied fewer folders than skills`);
  return kept.size;
}

function git(cwd, ...args) {
  return execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

function readme() {
  const rows = COLLECTIONS.map(
    (c) => `| ${c.folder}/ | github.com/${c.repo} | ${c.commit} | ${c.skills} | ${c.license} |`,
  ).join("\n");
  return `# Real-world skills corpus (fetched by \`pnpm corpus\`)

Published Agent Skills, text files only, at pinned commits; the same set as \`../shared/corpus\`.
Read-only test data; each collection keeps its license (LICENSE files, or per skill).

| folder | source | commit | skills | license |
|---|---|---|---|---|
${rows}
`;
}

process.exitCode = main(process.argv.slice(2));
