// /features: the features live on the landing page (docs/product.md, Public routes).
import { redirect } from "@remix-run/node";

export const loader = () => redirect("/#features", 301);
