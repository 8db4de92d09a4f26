// The server code the pages use, in one module: every service a page's loader or action calls,
// and the web plumbing of infra/web (sessions, toasts, request reading, guards, logging).
// Pages (app/routes/*.tsx and app/root.tsx) import from here only; ESLint holds them to it.
// Why one module: the browser build replaces each server module a page imports with an empty
// stand-in, and modules shared by several pages become files of their own, so 21 server
// modules came to 1–8 empty script files per page. Through one module they come to one, the
// same file on every page (docs/decisions/035-one-server-module-for-the-pages.md). The server
// build is one file either way.
export * from "~/infra/web/http-guards.server";
export * from "~/infra/web/http.server";
export * from "~/infra/web/log.server";
export * from "~/infra/web/oauth-return.server";
export * from "~/infra/web/page-cache.server";
export * from "~/infra/web/toast.server";
export * from "./accounts.server";
export * from "./api.server";
export * from "./billing.server";
export * from "./card-check.server";
export * from "./card-target-runs.server";
export * from "./chat-files.server";
export * from "./conversation-tests.server";
export * from "./chat.server";
export { chatChecksOf, currentVersionFlags, type ChatChecks } from "./chat-checks.server";
export * from "./form-reply.server";
export * from "./images.server";
export * from "./lore.server";
export * from "./persona-export.server";
export * from "./persona-history.server";
export * from "./persona-library.server";
export * from "./persona-profile.server";
export * from "./persona-wizard.server";
export * from "./personas.server";
export * from "./probes.server";
export * from "./service-error.server";
export * from "./session.server";
