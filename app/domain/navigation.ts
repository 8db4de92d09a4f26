// The signed-in navigation shell (docs/product.md, Navigation shell): its five items, which one
// is active, and the header title. Pure, so the shell and its tests share one truth.
import { PRODUCT_NAME } from "./site";

export const DASHBOARD_PATH = "/dashboard";
export const CREATE_PERSONA_PATH = "/create-persona";

export interface NavItem {
  path: string;
  label: string;
  /** 'button': an action (the create gate comes in front of it), not a plain link. */
  kind: "link" | "button";
}

// The shell's home item '/' is our /dashboard: '/' itself is the public landing page.
export const NAV_ITEMS: readonly NavItem[] = [
  { path: DASHBOARD_PATH, label: "Dashboard", kind: "link" },
  { path: CREATE_PERSONA_PATH, label: "Create New Persona", kind: "button" },
  { path: "/my-personas", label: "My Personas", kind: "link" },
  { path: "/subscription", label: "Subscription", kind: "link" },
  { path: "/settings", label: "Settings", kind: "link" },
];

/** The path itself or anything below it: '/settings' matches '/settings/x', not '/settingsx'. */
function underPath(prefix: string, pathname: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

/**
 * docs/product.md, Navigation shell: '/' is active only exactly, every other item by prefix. The
 * dashboard item stands for '/', so it is active on '/dashboard' and on '/', both exactly.
 */
export function isActive(itemPath: string, pathname: string): boolean {
  if (itemPath === "/") return pathname === "/";
  if (itemPath === DASHBOARD_PATH) return pathname === DASHBOARD_PATH || pathname === "/";
  return underPath(itemPath, pathname);
}

const DASHBOARD_TITLED = [CREATE_PERSONA_PATH, "/my-personas", "/subscription", "/settings"];

/**
 * docs/product.md, Navigation shell: a blank title on '/', 'Dashboard' on the create, my-personas, subscription,
 * settings and /persona/ paths, the product name elsewhere (/dashboard included).
 */
export function headerTitle(pathname: string): string {
  if (pathname === "/") return "";
  if (pathname.startsWith("/persona/")) return "Dashboard";
  if (DASHBOARD_TITLED.some((path) => underPath(path, pathname))) return "Dashboard";
  return PRODUCT_NAME;
}
