/** Only same-site paths: starts with one '/', not '//' or '/\' (which browsers treat as another host). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\") || /[\u0000-\u001f]/.test(to)) return fallback;
  return to;
}
