import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One route of a test site: a body (with optional status and headers) or a handler. */
export type Route =
  | { status?: number; headers?: Record<string, string>; body: string | Buffer }
  | ((req: IncomingMessage, res: ServerResponse) => void);

/** A node:http server on 127.0.0.1 serving `routes` (path → route); `close()` stops it. */
export interface SkillSite {
  base: string;
  routes: Map<string, Route>;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function skillSite(routes: Record<string, Route> = {}): Promise<SkillSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    requests.push(url);
    const route = table.get(url.split("?")[0]!);
    if (route === undefined) {
      res.writeHead(404).end("not found");
      return;
    }
    if (typeof route === "function") return route(req, res);
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    routes: table,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

export function sha256(bytes: string | Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** An index (v0.2.0) listing `entries`; each digest computed from the given bytes unless given. */
export function indexOf(
  entries: { name: string; type?: string; url: string; bytes?: string | Buffer; digest?: string }[],
): string {
  return JSON.stringify({
    $schema: SCHEMA,
    skills: entries.map((e) => ({
      name: e.name,
      type: e.type ?? "skill-md",
      description: `The ${e.name} skill.`,
      url: e.url,
      digest: e.digest ?? sha256(e.bytes ?? ""),
    })),
  });
}

/** A .tar.gz or .zip of `files` (path → text; a value `{ symlink }` makes a symlink; files under scripts/ are executable), built by python3's tarfile / zipfile. */
export function archive(kind: "tar.gz" | "zip", files: Record<string, string | { symlink: string }>): Buffer {
  const script = `
import io, json, sys, tarfile, zipfile, time
files = json.loads(sys.stdin.read())
out = io.BytesIO()
if sys.argv[1] == "zip":
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, value in files.items():
            if isinstance(value, dict):
                info = zipfile.ZipInfo(name); info.external_attr = (0o120777 << 16)
                z.writestr(info, value["symlink"])
            else:
                info = zipfile.ZipInfo(name); info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = ((0o100755 if name.startswith("scripts/") else 0o100644) << 16)
                z.writestr(info, value)
else:
    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
        for name, value in files.items():
            info = tarfile.TarInfo(name); info.mtime = 0
            if isinstance(value, dict):
                info.type = tarfile.SYMTYPE; info.linkname = value["symlink"]; t.addfile(info)
            else:
                info.mode = 0o755 if name.startswith("scripts/") else 0o644
                data = value.encode(); info.size = len(data); t.addfile(info, io.BytesIO(data))
sys.stdout.buffer.write(out.getvalue())
`;
  return execFileSync("python3", ["-c", script, kind], { input: JSON.stringify(files), maxBuffer: 64 * 1024 * 1024 });
}
