import { describe, expect, it } from "vitest";

import { headerTitle, isActive, NAV_ITEMS } from "./navigation";

describe("navigation items", () => {
  it("are the spec's five, in order, with create as a button", () => {
    expect(NAV_ITEMS.map(({ path, label }) => ({ path, label }))).toEqual([
      { path: "/dashboard", label: "Dashboard" },
      { path: "/create-persona", label: "Create New Persona" },
      { path: "/my-personas", label: "My Personas" },
      { path: "/subscription", label: "Subscription" },
      { path: "/settings", label: "Settings" },
    ]);
    expect(NAV_ITEMS.filter((item) => item.kind === "button").map((item) => item.path)).toEqual(["/create-persona"]);
  });
});

describe("isActive", () => {
  it("matches '/' only exactly", () => {
    expect(isActive("/", "/")).toBe(true);
    expect(isActive("/", "/settings")).toBe(false);
    expect(isActive("/", "/dashboard")).toBe(false);
  });

  it("treats the dashboard as the spec's '/': active on /dashboard and on / exactly", () => {
    expect(isActive("/dashboard", "/dashboard")).toBe(true);
    expect(isActive("/dashboard", "/")).toBe(true);
    expect(isActive("/dashboard", "/dashboard/anything")).toBe(false);
    expect(isActive("/dashboard", "/settings")).toBe(false);
  });

  it("matches the other items by prefix, on whole path segments", () => {
    expect(isActive("/settings", "/settings")).toBe(true);
    expect(isActive("/settings", "/settings/")).toBe(true);
    expect(isActive("/my-personas", "/my-personas/archived")).toBe(true);
    expect(isActive("/create-persona", "/create-persona")).toBe(true);
    expect(isActive("/settings", "/settingsx")).toBe(false);
    expect(isActive("/subscription", "/settings")).toBe(false);
    expect(isActive("/my-personas", "/persona/1")).toBe(false);
  });

  it("marks exactly one item on each shell page", () => {
    for (const pathname of ["/dashboard", "/create-persona", "/my-personas", "/subscription", "/settings"]) {
      expect(NAV_ITEMS.filter((item) => isActive(item.path, pathname)).map((item) => item.path)).toEqual([pathname]);
    }
    expect(NAV_ITEMS.filter((item) => isActive(item.path, "/persona/abc"))).toEqual([]);
  });
});

describe("headerTitle", () => {
  it("is blank on '/'", () => {
    expect(headerTitle("/")).toBe("");
  });

  it("reads 'Dashboard' on the create, my-personas, subscription, settings and persona paths", () => {
    for (const pathname of [
      "/create-persona",
      "/my-personas",
      "/subscription",
      "/settings",
      "/settings/",
      "/persona/0b7e4f3c-1111-4a4a-8888-123456789abc",
      "/persona/abc/chat",
    ]) {
      expect(headerTitle(pathname), pathname).toBe("Dashboard");
    }
  });

  it("is the product name elsewhere, /dashboard included", () => {
    for (const pathname of ["/dashboard", "/persona", "/personas", "/settingsx", "/contact", "/anything/else"]) {
      expect(headerTitle(pathname), pathname).toBe("PersonaForge");
    }
  });
});
