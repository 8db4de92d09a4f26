// Product-wide constants and copy used on public pages (docs/product.md, Plans and Public routes).
export const PRODUCT_NAME = "PersonaForge";
export const PRODUCT_TAGLINE = "Design AI characters with personalities, stories, and dynamic conversations.";
export const CONTACT_EMAIL = "hello@personaforge.app";

export const PLANS = {
  free: { name: "Free", priceUsd: 0, personaLimit: 10 },
  premium: { name: "Premium", priceUsd: 9.99, personaLimit: null, note: "May be limited by traffic" },
} as const;

/** What both plans include (docs/product.md, Plans). */
export const PLAN_INCLUDES = [
  "Narratives of 800+ words",
  "Reference images in 5 styles",
  "Interactive chat",
  "Export (Text, JSON, Markdown, YAML)",
] as const;

export const NOT_FOUND = {
  title: "404 Page Not Found",
  hint: "Did you forget to add the page to the router?",
} as const;
