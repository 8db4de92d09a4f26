// docs/product.md, Public routes: the contact page links to /api/login, a browser navigation to the sign-in screen.
import { redirect } from "@remix-run/node";
import { methodNotAllowed } from "~/services/api.server";

export function loader() {
  return redirect("/login");
}

export const action = methodNotAllowed(["GET"]);
