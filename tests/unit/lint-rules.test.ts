// The house's lint rules (eslint.config.mjs) tried with probes: each layer rule refuses an import
// by its `~/` name and by a relative path, an import cycle is refused against the real graph, and
// the imports each layer may make pass (`npm run lint` holds the app itself to the same rules). ESLint lints the probe's text as if it were the named file.
import { fileURLToPath } from "node:url";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules a probe breaks, as ESLint names them. */
async function broken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? m.message);
}

const use = (from: string) => `import * as probe from "${from}";\nexport const used = probe;\n`;

const REFUSED: [file: string, from: string][] = [
  // infra/ never imports a service
  ["app/infra/db/probe.server.ts", "~/services/accounts.server"],
  ["app/infra/db/probe.server.ts", "../../services/accounts.server"],
  // domain/ is pure: no server module, no Node built-in, no UI, no route
  ["app/domain/probe.ts", "~/infra/db/schema.server"],
  ["app/domain/probe.ts", "../infra/db/schema.server"],
  ["app/domain/probe.ts", "../services/personas.server"],
  ["app/domain/probe.ts", "node:fs"],
  ["app/domain/probe.ts", "../components/toaster"],
  ["app/domain/probe.ts", "../routes/_index"],
  // components never import server code
  ["app/components/probe.tsx", "~/services/personas.server"],
  ["app/components/probe.tsx", "../infra/web/session-cookie.server"],
  ["app/components/probe.tsx", "../infra/db/schema.server"],
  // a page takes server code from the one module; the JSON API reaches adapters only through services
  ["app/routes/probe.tsx", "../infra/db/db.server"],
  ["app/routes/probe.tsx", "~/services/personas.server"],
  ["app/routes/api.$/probe.ts", "../../infra/db/db.server"],
  ["app/routes/api.$/probe.ts", "~/infra/ai/ai.server"],
  // services render no UI; nothing imports a route
  ["app/services/probe.server.ts", "../components/toaster"],
  ["app/services/probe.server.ts", "../routes/_index"],
  // only a dependency's public entry points
  ["app/services/probe.server.ts", "react-dom/cjs/react-dom-server.node.production"],
];

const ALLOWED: [file: string, from: string][] = [
  ["app/services/probe.server.ts", "~/infra/db/db.server"],
  ["app/services/probe.server.ts", "../infra/db/schema.server"],
  ["app/services/probe.server.ts", "./accounts.server"],
  ["app/routes/probe.tsx", "~/services/index.server"],
  ["app/routes/probe.tsx", "../services/index.server"],
  ["app/routes/api.$/probe.ts", "~/services/personas.server"],
  ["app/components/probe.tsx", "~/domain/persona"],
  ["app/infra/db/probe.server.ts", "~/domain/persona"],
];

describe("the layer rules", () => {
  it.each(REFUSED)("%s may not import %s", async (file, from) => {
    expect(await broken(file, use(from))).toContain("no-restricted-imports");
  });
  it.each(ALLOWED)("%s may import %s", async (file, from) => {
    expect(await broken(file, use(from))).toEqual([]);
  });
});

describe("import cycles", () => {
  it("a module that imports one that imports it back is refused", async () => {
    // ai-disclosure.ts imports site.ts: site.ts importing ai-disclosure.ts back closes a cycle.
    expect(await broken("app/domain/site.ts", use("./ai-disclosure"))).toContain("import-x/no-cycle");
    expect(await broken("app/domain/site.ts", use("~/domain/ai-disclosure"))).toContain("import-x/no-cycle");
  });
});
