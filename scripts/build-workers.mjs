// The threads the server starts for work that must not hold its main thread (docs/architecture.md):
// each app/infra/compute/*.worker.ts bundled to build/workers/<name>.mjs. The Remix compiler
// bundles the app into one module and knows nothing of threads; `npm run build` runs this after it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "app", "infra", "compute");
const entryPoints = Object.fromEntries(
  readdirSync(dir)
    .filter((file) => file.endsWith(".worker.ts"))
    .map((file) => [file.replace(/\.worker\.ts$/, ""), path.join(dir, file)]),
);

// Dependencies are read from node_modules, as the server's own bundle reads them; the app's own
// modules (`~/…`, tsconfig.json's paths) are bundled.
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints,
  outdir: path.join(root, "build", "workers"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external,
  logLevel: "warning",
});
