// The persona library's list (docs/product.md, Library): tabs, search, sort and
// paging as they travel in the URL. Pure, so the page, its GET form and the JSON API read the
// same parameters the same way. A parameter that is none of ours is ignored and its default
// applies; a search is cut to a sensible length rather than refused.
import { PERSONA_STATUSES, type PersonaStatus } from "./persona";

export const LIST_TABS = [
  { id: "all", label: "All Personas" },
  { id: "archived", label: "Archived" },
] as const;
export type ListTab = (typeof LIST_TABS)[number]["id"];

export const LIST_SORTS = [
  { id: "newest", label: "Newest First" },
  { id: "oldest", label: "Oldest First" },
  { id: "name-asc", label: "Name (A-Z)" },
  { id: "name-desc", label: "Name (Z-A)" },
] as const;
export type ListSort = (typeof LIST_SORTS)[number]["id"];

export const LIST_PAGE_SIZE = 12;
export const LIST_PAGE_SIZE_MAX = 100;
export const SEARCH_MAX = 100;
export const RECENT_LIMIT = 6;

export const LIST_TEXT = {
  heading: "My Personas",
  create: "Create New Persona",
  searchLabel: "Search personas",
  searchPlaceholder: "Search by name or description",
  sortLabel: "Sort by",
  emptyTitle: "No personas found",
  emptyText: "You don't have any personas in this category yet",
  noMatch: (q: string) => `No persona's name or description matches “${q}”.`,
  clearSearch: "Clear search",
  loading: "Loading personas...",
  viewDetails: "View Details",
  continueCreating: "Continue Creating",
  archive: "Archive",
  restore: "Restore",
  delete: "Delete",
} as const;

export interface ListQuery {
  tab: ListTab;
  q: string;
  sort: ListSort;
  page: number;
}

export const DEFAULT_LIST_QUERY: ListQuery = { tab: "all", q: "", sort: "newest", page: 1 };

function one<T extends string>(options: readonly { id: T }[], value: string | null, fallback: T): T {
  return options.find((option) => option.id === value)?.id ?? fallback;
}

/** A whole number from 1 up, or the fallback for anything else ("2.5", "-1", "abc", "1e9"). */
export function parsePositiveInt(value: string | null, fallback: number, max = 1_000_000): number {
  if (value === null || !/^\d{1,7}$/.test(value.trim())) return fallback;
  const n = Number(value.trim());
  return n >= 1 && n <= max ? n : fallback;
}

/** The search as used: trimmed, at most SEARCH_MAX characters (never split inside a character). */
export function normalizeSearch(value: string | null): string {
  // Control characters (NUL among them, which PostgreSQL refuses) become spaces.
  const text = (value ?? "").replace(/\p{Cc}/gu, " ").trim();
  return [...text].slice(0, SEARCH_MAX).join("").trim();
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  return {
    tab: one(LIST_TABS, params.get("tab"), "all"),
    q: normalizeSearch(params.get("q")),
    sort: one(LIST_SORTS, params.get("sort"), "newest"),
    page: parsePositiveInt(params.get("page"), 1),
  };
}

/** The URL of a list view; defaults are left out so links stay short. */
export function listHref(query: Partial<ListQuery>, base = "/my-personas"): string {
  const params = new URLSearchParams();
  if (query.tab && query.tab !== "all") params.set("tab", query.tab);
  if (query.q) params.set("q", query.q);
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** `%text%` for ILIKE with the wildcards and the escape character taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The API's `status` filter: one of the statuses, or 'all'; absent means every non-archived persona. */
export type StatusFilter = PersonaStatus | "all" | "not-archived";

export function parseStatusFilter(value: string | null): StatusFilter | undefined {
  if (value === null || value === "") return "not-archived";
  if (value === "all") return "all";
  return (PERSONA_STATUSES as readonly string[]).includes(value) ? (value as PersonaStatus) : undefined;
}

/**
 * GET /api/personas's parameters: the screen's search, sort and page, plus `status` instead of
 * tabs and a `pageSize`. `status` is undefined when it is none of ours (the API refuses it).
 */
export function parseApiListQuery(params: URLSearchParams) {
  const { q, sort, page } = parseListQuery(params);
  return {
    status: parseStatusFilter(params.get("status")),
    q,
    sort,
    page,
    pageSize: parsePositiveInt(params.get("pageSize"), LIST_PAGE_SIZE, LIST_PAGE_SIZE_MAX),
  };
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/** Pages needed for `total` items (at least 1, so an empty list is page 1 of 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

// ---------------------------------------------------------------------------------------
// Dashboard (docs/product.md, Dashboard): bars relative to 20 and 40, capped at 100%.

export const DASHBOARD_BARS = { activePersonas: 20, generatedContent: 40 } as const;

export function barPercent(value: number, relativeTo: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(100, Math.round((value / relativeTo) * 100));
}

export const ARCHIVE_TOASTS = {
  archived: { title: "Persona archived", description: "The persona has been moved to the archive." },
  archiveFailed: { title: "Error", description: "Failed to archive persona. Please try again." },
  restored: { title: "Persona restored", description: "The persona is back in your library." },
  restoreFailed: { title: "Error", description: "Failed to restore persona. Please try again." },
  deleted: { title: "Persona deleted", description: "The persona has been successfully deleted." },
  deleteFailed: { title: "Error", description: "Failed to delete persona. Please try again." },
} as const;
