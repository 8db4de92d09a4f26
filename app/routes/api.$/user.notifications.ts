import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";

import {
  getNotificationPreferences,
  NOTIFICATIONS_BODY,
  parseNotificationSettings,
  updateNotificationPreferences,
} from "~/services/accounts.server";
import { assertMethod, handleApi, jsonObject } from "~/services/api.server";
import { requireApiUser, responseHeaders } from "~/services/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireApiUser(request, context);
  return Response.json(await getNotificationPreferences(user), { headers: responseHeaders(ctx, { "Cache-Control": "private, no-store" }) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertMethod(request, ["GET", "PATCH"]);
  const { user, ctx } = await requireApiUser(request, context);
  return handleApi(ctx, async () => {
    const body = await jsonObject(request, NOTIFICATIONS_BODY);
    const settings = await updateNotificationPreferences(user, parseNotificationSettings(body, "json"));
    return Response.json(settings, { headers: responseHeaders(ctx) });
  });
}
