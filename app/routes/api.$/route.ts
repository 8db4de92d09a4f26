// Every /api/* call (docs/api.md). This one resource route answers them all and hands each
// request to its call's module in this folder, found by path in the table below
// (infra/web/api-calls.server.ts); Remix matches every request against all route modules, so
// the calls are not route modules of their own (docs/decisions/033). A path that is no call: a
// JSON 404 (not the HTML page), whatever the method.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { apiCallTable } from "~/infra/web/api-calls.server";
import { httpError } from "~/infra/web/http.server";

import * as authProvider from "./auth.$provider";
import * as authForgotPassword from "./auth.forgot-password";
import * as authLogin from "./auth.login";
import * as authLogout from "./auth.logout";
import * as authRegister from "./auth.register";
import * as authResendVerification from "./auth.resend-verification";
import * as authResetPassword from "./auth.reset-password";
import * as authUser from "./auth.user";
import * as authVerifyEmail from "./auth.verify-email";
import * as createCheckoutSession from "./create-checkout-session";
import * as createCustomerPortalSession from "./create-customer-portal-session";
import * as generateBackstory from "./generate-backstory";
import * as login from "./login";
import * as personas from "./personas";
import * as persona from "./personas.$id";
import * as personaCardCheck from "./personas.$id.card-check";
import * as personaCardCheckFix from "./personas.$id.card-check.fix";
import * as personaChat from "./personas.$id.chat";
import * as personaChatExport from "./personas.$id.chat.export";
import * as personaChatImport from "./personas.$id.chat.import";
import * as personaChatChoose from "./personas.$id.chat.messages.$messageId.choose";
import * as personaChatChecks from "./personas.$id.chat-checks";
import * as personaChatRegenerate from "./personas.$id.chat.regenerate";
import * as personaConversationTests from "./personas.$id.conversation-tests";
import * as personaConversationTest from "./personas.$id.conversation-tests.$runId";
import * as personaExport from "./personas.$id.export";
import * as personaFinishImport from "./personas.$id.finish-import";
import * as personaGenerateImages from "./personas.$id.generate-images";
import * as personaImageStyle from "./personas.$id.image-style";
import * as personaLorebook from "./personas.$id.lorebook";
import * as personaLorebookCompile from "./personas.$id.lorebook.compile";
import * as personaLorebookEntries from "./personas.$id.lorebook.entries";
import * as personaLorebookEntry from "./personas.$id.lorebook.entries.$entryId";
import * as personaProbes from "./personas.$id.probes";
import * as personaProfileSection from "./personas.$id.profile.$section";
import * as personaProbe from "./personas.$id.probes.$probeId";
import * as personaProbesRun from "./personas.$id.probes.run";
import * as personaProbeRuns from "./personas.$id.probes.runs";
import * as personaProbeRun from "./personas.$id.probes.runs.$runId";
import * as personaProbesSuggest from "./personas.$id.probes.suggest";
import * as personaStatus from "./personas.$id.status";
import * as personaSurvival from "./personas.$id.survival";
import * as personaSurvivalRun from "./personas.$id.survival.run";
import * as personaSurvivalRunOne from "./personas.$id.survival.runs.$runId";
import * as personaVersions from "./personas.$id.versions";
import * as personaVersion from "./personas.$id.versions.$n";
import * as personaVersionRestore from "./personas.$id.versions.$n.restore";
import * as personaVersionsCompare from "./personas.$id.versions.compare";
import * as personasDraft from "./personas.draft";
import * as personasImport from "./personas.import";
import * as personasRecent from "./personas.recent";
import * as personasStats from "./personas.stats";
import * as subscriptionStatus from "./subscription.status";
import * as userNotifications from "./user.notifications";
import * as userProfile from "./user.profile";
import * as userUsage from "./user.usage";
import * as webhooksStripe from "./webhooks.stripe";

/** A call's module: its loader answers GET and HEAD, its action every other method. */
type ApiCall = {
  loader: (args: LoaderFunctionArgs) => unknown;
  action: (args: ActionFunctionArgs) => unknown;
};

/** Each call's path below /api/, as in docs/api.md; a module file is named after its path. */
export const API_CALLS: Readonly<Record<string, ApiCall>> = {
  "auth/:provider": authProvider,
  "auth/forgot-password": authForgotPassword,
  "auth/login": authLogin,
  "auth/logout": authLogout,
  "auth/register": authRegister,
  "auth/resend-verification": authResendVerification,
  "auth/reset-password": authResetPassword,
  "auth/user": authUser,
  "auth/verify-email": authVerifyEmail,
  "create-checkout-session": createCheckoutSession,
  "create-customer-portal-session": createCustomerPortalSession,
  "generate-backstory": generateBackstory,
  login: login,
  personas: personas,
  "personas/:id": persona,
  "personas/:id/card-check": personaCardCheck,
  "personas/:id/card-check/fix": personaCardCheckFix,
  "personas/:id/chat": personaChat,
  "personas/:id/chat-checks": personaChatChecks,
  "personas/:id/chat/export": personaChatExport,
  "personas/:id/chat/import": personaChatImport,
  "personas/:id/chat/messages/:messageId/choose": personaChatChoose,
  "personas/:id/chat/regenerate": personaChatRegenerate,
  "personas/:id/conversation-tests": personaConversationTests,
  "personas/:id/conversation-tests/:runId": personaConversationTest,
  "personas/:id/export": personaExport,
  "personas/:id/finish-import": personaFinishImport,
  "personas/:id/generate-images": personaGenerateImages,
  "personas/:id/image-style": personaImageStyle,
  "personas/:id/lorebook": personaLorebook,
  "personas/:id/lorebook/compile": personaLorebookCompile,
  "personas/:id/lorebook/entries": personaLorebookEntries,
  "personas/:id/lorebook/entries/:entryId": personaLorebookEntry,
  "personas/:id/probes": personaProbes,
  "personas/:id/probes/:probeId": personaProbe,
  "personas/:id/probes/run": personaProbesRun,
  "personas/:id/probes/runs": personaProbeRuns,
  "personas/:id/probes/runs/:runId": personaProbeRun,
  "personas/:id/probes/suggest": personaProbesSuggest,
  "personas/:id/profile/:section": personaProfileSection,
  "personas/:id/status": personaStatus,
  "personas/:id/survival": personaSurvival,
  "personas/:id/survival/run": personaSurvivalRun,
  "personas/:id/survival/runs/:runId": personaSurvivalRunOne,
  "personas/:id/versions": personaVersions,
  "personas/:id/versions/:n": personaVersion,
  "personas/:id/versions/:n/restore": personaVersionRestore,
  "personas/:id/versions/compare": personaVersionsCompare,
  "personas/draft": personasDraft,
  "personas/import": personasImport,
  "personas/recent": personasRecent,
  "personas/stats": personasStats,
  "subscription/status": subscriptionStatus,
  "user/notifications": userNotifications,
  "user/profile": userProfile,
  "user/usage": userUsage,
  "webhooks/stripe": webhooksStripe,
};

const findApiCall = apiCallTable("/api", API_CALLS);

function callFor(request: Request) {
  const pathname = new URL(request.url).pathname;
  const found = findApiCall(pathname);
  if (!found) return httpError(404, `There is no API call at ${pathname}.`);
  return found;
}

export function loader(args: LoaderFunctionArgs) {
  const { call, params } = callFor(args.request);
  return call.loader({ ...args, params });
}

export function action(args: ActionFunctionArgs) {
  const { call, params } = callFor(args.request);
  return call.action({ ...args, params });
}
