#!/usr/bin/env node
// `pnpm reference`: the API reference. TypeDoc (typedoc.json) writes docs/api/ from the doc comments;
// then the index page and the options page are opened in headless Chromium (Debian's `chromium`, or
// SKILLCTX_CHROMIUM) and checked as a reader sees them (and, without a browser, no interface member of
// the main entry prints a nested inline object type), after their scripts ran: the introduction and
// the first loop on the index, the navigation built, and on the options page every option with its
// default and an example. Without Chromium the page check is skipped with a note (it fails instead
// when SKILLCTX_REQUIRE_TOOLS=1, as in CI). `--no-typedoc` checks pages already generated.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = path.join(root, "docs/api");

if (!process.argv.includes("--no-typedoc")) {
  // typedoc's package.json exports no bin path; its folder holds it.
  const pkg = createRequire(import.meta.url).resolve("typedoc/package.json");
  execFileSync(process.execPath, [path.join(path.dirname(pkg), "bin/typedoc")], { cwd: root, stdio: "inherit" });
}

// Named types, not inlined ones: no member of an interface page of the main entry prints a nested object
// type of its own (a schema type that is an alias of z.infer prints every member where it is used; an
// interface over it is linked by name). Read from the generated files: no browser needed.
const inlined = [];
const interfaces = path.join(out, "interfaces");
for (const file of existsSync(interfaces) ? readdirSync(interfaces) : []) {
  if (!file.startsWith("skillctx.")) continue;
  const page = readFileSync(path.join(interfaces, file), "utf8");
  for (const member of page.matchAll(/<section class="tsd-panel tsd-member[^"]*">([\s\S]*?)<\/section>/g)) {
    const signature = member[1].match(/<div class="tsd-signature[^"]*">([\s\S]*?)<\/div>/)?.[1] ?? "";
    const shown = signature
      .replace(/<[^>]+>/g, "")
      .replace(/&[a-z]+;/g, " ")
      .replace(/\s+/g, " ");
    if ((shown.match(/\{/g) ?? []).length >= 2 && shown.length > 200) inlined.push(`${file}: ${shown.slice(0, 80)}…`);
  }
}
if (inlined.length > 0) {
  console.error(`reference: members that print an inline object type (name the type):\n${inlined.join("\n")}`);
  process.exit(1);
}

const chromium = process.env.SKILLCTX_CHROMIUM ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
if (chromium === undefined) {
  const note = "reference: Chromium is absent (apt-get install chromium), so the pages were not opened in a browser";
  if (process.env.SKILLCTX_REQUIRE_TOOLS === "1") {
    console.error(`${note}; SKILLCTX_REQUIRE_TOOLS=1 needs it`);
    process.exit(1);
  }
  console.log(note);
  process.exit(0);
}

/** The page's DOM after its scripts ran, and what its console said. */
function render(page) {
  const profile = mkdtempSync(path.join(tmpdir(), "skillctx-chromium-"));
  try {
    const result = spawnSync(
      chromium,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=5000",
        "--dump-dom",
        pathToFileURL(path.join(out, page)).href,
      ],
      { encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    if (result.status !== 0)
      throw new Error(`chromium exited ${result.status} on ${page}: ${result.stderr.slice(-2000)}`);
    const consoleErrors = result.stderr
      .split("\n")
      .filter((line) => /CONSOLE/.test(line) && /(Uncaught|Error|Failed)/.test(line));
    return { dom: result.stdout, consoleErrors };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const problems = [];
const text = (html) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

const index = render("index.html");
const indexText = text(index.dom);
for (const needed of ["skillctx API reference", "The first loop", "AgentContext.create", "Where to look next"])
  if (!indexText.includes(needed)) problems.push(`index.html: "${needed}" is not on the page`);
if (!/href="[^"]*AgentContextOptions\.html"/.test(index.dom)) problems.push("index.html: no link to the options page");
// The site navigation is built by the page's script from assets/navigation.js (the page itself holds an
// empty list): entries in it mean the scripts ran.
const nav = index.dom.match(/id="tsd-nav-container"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
if (!/href="[^"]*modules\/skillctx\.html"/.test(index.dom))
  problems.push('index.html: the main entry is not named "skillctx"');
if (!/<li>/.test(nav)) problems.push("index.html: the navigation was not built");
for (const line of index.consoleErrors) problems.push(`index.html console: ${line}`);

const optionsPage = "interfaces/skillctx.AgentContextOptions.html";
if (!existsSync(path.join(out, optionsPage))) problems.push(`${optionsPage} was not generated`);
else {
  const options = render(optionsPage);
  const members = [...options.dom.matchAll(/<section class="tsd-panel tsd-member[^"]*">([\s\S]*?)<\/section>/g)].map(
    (m) => m[1],
  );
  if (members.length < 10) problems.push(`${optionsPage}: ${members.length} options on the page`);
  for (const member of members) {
    const name = member.match(/id="([^"]+)"/)?.[1] ?? "?";
    if (name !== "cwd" && !/>Default</.test(member)) problems.push(`${optionsPage}: option ${name} shows no default`);
    if (!/>Example</.test(member)) problems.push(`${optionsPage}: option ${name} shows no example`);
  }
  for (const line of options.consoleErrors) problems.push(`${optionsPage} console: ${line}`);
  if (problems.length === 0) console.log(`reference: ${members.length} options, each with its default and an example`);
}

if (problems.length > 0) {
  console.error(`reference: the pages do not read as they should:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(
  `reference: docs/api/index.html and ${optionsPage} render in ${path.basename(chromium)} and hold what a reader needs`,
);
