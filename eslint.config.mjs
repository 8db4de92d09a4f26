// ESLint for the whole repository (`npm run lint`, part of `npm test`; at the root, so editors find
// it): TypeScript's and React's usual rules, plus the architecture's boundaries as import rules,
// for `~/` imports and relative ones alike (tests/unit/lint-rules.test.ts tries each with a probe):
// - routes → services → infra / domain: routes reach the adapters only through services,
//   services and infra never import a route, infra never imports a service, components never
//   import server code;
// - domain is pure and isomorphic: no server module, no Node built-in;
// - no import cycle in app/;
// - only a dependency's public entry points: no dist/, lib/, cjs/, esm/ or src/ paths.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const privateDependencyPaths = {
  group: ["*/dist/*", "*/lib/*", "*/cjs/*", "*/esm/*", "*/src/*", "@*/*/dist/*", "@*/*/lib/*", "@*/*/cjs/*", "@*/*/esm/*", "@*/*/src/*"],
  message: "Import a dependency through its documented entry points only (docs/decisions: only supported APIs).",
};
// Each layer by its `~/` name and by a relative path to it (`../services/x`, `../../infra/db/y`).
const under = (...layers) => layers.flatMap((layer) => [`~/${layer}/*`, `**/${layer}/*`]);
const routes = { group: under("routes"), message: "Routes are the top layer: nothing imports them." };
const services = { group: under("services"), message: "infra/ and domain/ sit below services/ (routes → services → infra/domain)." };
const serverModules = {
  group: [...under("infra", "services"), "*.server", "**/*.server"],
  message: "This layer runs in the browser too: no server modules.",
};
const components = (message) => ({ group: under("components"), message });
const nodeBuiltins = { group: ["node:*"], message: "domain/ is pure and isomorphic: no Node built-ins." };

/** no-restricted-imports with these pattern groups. */
const restrict = (...patterns) => ["error", { patterns }];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "node_modules/**",
      ".cache/**",
      "test-results/**",
      "playwright-report/**",
      "bench-results/**",
      ".data/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mjs,js}"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        fetch: "readonly",
        Request: "readonly",
        Response: "readonly",
        Headers: "readonly",
        FormData: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        queueMicrotask: "readonly",
        structuredClone: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        ReadableStream: "readonly",
        WritableStream: "readonly",
        TransformStream: "readonly",
        window: "readonly",
        document: "readonly",
        navigator: "readonly",
        location: "readonly",
        performance: "readonly",
        crypto: "readonly",
        Blob: "readonly",
        File: "readonly",
        Event: "readonly",
        EventTarget: "readonly",
        HTMLElement: "readonly",
        globalThis: "readonly",
      },
    },
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths),
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "error",
      // TypeScript itself reports undefined names (tsc runs in npm test).
      "no-undef": "off",
      // The validators match control characters on purpose, to refuse them.
      "no-control-regex": "off",
      // A callback may read a variable assigned just after it is created (a timer set once the stream exists).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // React's rules where React runs; elsewhere a name like useDatabase() is a test's setter.
    files: ["app/components/**/*.{ts,tsx}", "app/routes/**/*.tsx", "app/root.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // A page renders from its URL and its loaders' data only, so a kept document is the one a
      // render would give (docs/decisions/031): a component (a function named in capitals) does
      // not read the clock; its loader works out what depends on it ('3 days ago'). An event
      // handler or an effect inside a component may, with this rule disabled for its line.
      "no-restricted-syntax": [
        "error",
        {
          selector: "FunctionDeclaration[id.name=/^[A-Z]/] NewExpression[callee.name='Date'][arguments.length=0]",
          message: "A component renders from its data: read the clock in the loader (decision 031).",
        },
        {
          selector: "FunctionDeclaration[id.name=/^[A-Z]/] CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: "A component renders from its data: read the clock in the loader (decision 031).",
        },
      ],
    },
  },
  {
    files: ["app/domain/**/*.{ts,tsx}"],
    ignores: ["app/domain/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths, routes, serverModules, nodeBuiltins, components("domain/ imports no UI.")),
    },
  },
  {
    files: ["app/components/**/*.{ts,tsx}"],
    ignores: ["app/components/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": restrict(privateDependencyPaths, routes, serverModules) },
  },
  {
    files: ["app/infra/**/*.{ts,tsx}"],
    ignores: ["app/infra/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths, routes, services, components("infra/ renders no UI.")),
    },
  },
  {
    // Routes reach the adapters (database, sign-in, AI, storage, mail, payments) only through
    // services; the web plumbing (infra/web), the setup (infra/setup) and domain/ they may use.
    files: ["app/routes/**/*.{ts,tsx}"],
    ignores: ["app/routes/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths, routes, {
        group: under("infra/db", "infra/auth", "infra/ai", "infra/storage", "infra/mail", "infra/payments", "infra/formats"),
        message: "Routes call services, which use the adapters (routes → services → infra).",
      }),
    },
  },
  {
    // A page's route module (and the root) takes all its server code, the services and the web
    // plumbing of infra/web, from one module, ~/services/index.server. The browser build stands an
    // empty file in for each server module a page imports; one module for all leaves one such
    // file, the same on every page (docs/decisions/035-one-server-module-for-the-pages.md). The
    // JSON API's handlers (routes/api.$/) never reach the browser and import their services
    // directly.
    files: ["app/routes/*.{ts,tsx}", "app/root.tsx"],
    ignores: ["app/routes/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths, routes, {
        group: [...under("infra", "services"), "*.server", "**/*.server", "!~/services/index.server", "!../services/index.server"],
        message: "A page takes its server code from ~/services/index.server, which re-exports the services and infra/web (decision 035).",
      }),
    },
  },
  {
    files: ["app/services/**/*.{ts,tsx}"],
    ignores: ["app/services/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(privateDependencyPaths, routes, components("services/ render no UI.")),
    },
  },
  {
    // No import cycle in the app: a cycle hides which module a layer really needs, and leaves a
    // module's exports undefined while the other one loads.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);
