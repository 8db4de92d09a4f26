import { describe, expect, it } from "vitest";

import {
  barPercent,
  DEFAULT_LIST_QUERY,
  likePattern,
  listHref,
  normalizeSearch,
  pageCount,
  parseApiListQuery,
  parseListQuery,
  parsePositiveInt,
  parseStatusFilter,
  SEARCH_MAX,
} from "./persona-list";

const query = (search: string) => parseListQuery(new URLSearchParams(search));

describe("the list's URL", () => {
  it("reads tabs, search, sort and page, with the defaults for anything else", () => {
    expect(query("")).toEqual(DEFAULT_LIST_QUERY);
    expect(query("tab=archived&q=%20nova%20&sort=name-desc&page=3")).toEqual({ tab: "archived", q: "nova", sort: "name-desc", page: 3 });
    expect(query("tab=deleted&sort=random&page=-2")).toEqual(DEFAULT_LIST_QUERY);
    for (const page of ["0", "2.5", "abc", "1e3", "99999999", ""]) expect(query(`page=${page}`).page).toBe(1);
  });

  it("cuts a long search and turns control characters (NUL among them) into spaces", () => {
    expect(normalizeSearch("x".repeat(10_000))).toHaveLength(SEARCH_MAX);
    expect(normalizeSearch("a\u0000b\nc")).toBe("a b c");
    expect(normalizeSearch("😀".repeat(200))).toBe("😀".repeat(SEARCH_MAX));
    expect(normalizeSearch(null)).toBe("");
  });

  it("writes short links that read back the same", () => {
    expect(listHref(DEFAULT_LIST_QUERY)).toBe("/my-personas");
    const q = { tab: "archived", q: "a&b c", sort: "oldest", page: 2 } as const;
    expect(listHref(q)).toBe("/my-personas?tab=archived&q=a%26b+c&sort=oldest&page=2");
    expect(query(listHref(q).split("?")[1]!)).toEqual(q);
  });

  it("takes % and _ literally in a search", () => {
    expect(likePattern("100%_real\\")).toBe("%100\\%\\_real\\\\%");
  });

  it("parses the API's status filter; an unknown one is refused", () => {
    expect(parseStatusFilter(null)).toBe("not-archived");
    expect(parseStatusFilter("all")).toBe("all");
    expect(parseStatusFilter("in_progress")).toBe("in_progress");
    expect(parseStatusFilter("deleted")).toBeUndefined();
  });

  it("reads the API's parameters the screen's way, plus status and page size", () => {
    expect(parseApiListQuery(new URLSearchParams("status=archived&sort=bogus&pageSize=500&q=%00a"))).toEqual({
      status: "archived",
      q: "a",
      sort: "newest",
      page: 1,
      pageSize: 12,
    });
    expect(parseApiListQuery(new URLSearchParams("status=gone")).status).toBeUndefined();
  });

  it("counts pages (at least one) and positive numbers", () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
    expect(parsePositiveInt("100", 12, 100)).toBe(100);
    expect(parsePositiveInt("101", 12, 100)).toBe(12);
  });
});

describe("dashboard bars", () => {
  it("fill relative to 20 and 40, capped at 100%", () => {
    expect(barPercent(3, 20)).toBe(15);
    expect(barPercent(50, 40)).toBe(100);
    expect(barPercent(0, 20)).toBe(0);
    expect(barPercent(-1, 20)).toBe(0);
  });
});
