// /pricing: the plans live on the landing page (docs/product.md, Public routes).
import { redirect } from "@remix-run/node";

export const loader = () => redirect("/#pricing", 301);
