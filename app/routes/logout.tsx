// Log out (docs/product.md, Registration and sign-in): ends every session of the user, clears the cookie, back to '/'.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";

import { signOut, optionalUser, redirectSignedOut } from "~/services/index.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, ctx } = await optionalUser(request, context);
  if (user) await signOut(ctx, user);
  return redirectSignedOut(ctx, "/");
}

// Signing out changes state, so it is a POST; a visit to /logout just goes home.
export function loader() {
  return redirect("/");
}
