import { describe, expect, it } from "vitest";

import { relativeTime, statusBadge, typeLabel } from "./persona-display";

describe("persona display", () => {
  it("status badges as docs/product.md lists them; anything else reads Archived", () => {
    expect(statusBadge("active")).toEqual({ label: "Active", tone: "green" });
    expect(statusBadge("in_progress")).toEqual({ label: "In Progress", tone: "blue" });
    expect(statusBadge("archived")).toEqual({ label: "Archived", tone: "grey" });
    expect(statusBadge("weird")).toEqual({ label: "Archived", tone: "grey" });
  });
  it("type labels, 'Character' when missing", () => {
    expect(typeLabel("vtuber")).toBe("AIVTuber");
    expect(typeLabel("specialist")).toBe("Domain Specialist");
    expect(typeLabel(null)).toBe("Character");
    expect(typeLabel("nope")).toBe("Character");
  });
  it("relative time", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(relativeTime("2026-11-21T11:59:30Z", now)).toBe("just now");
    expect(relativeTime("2026-11-21T11:57:00Z", now)).toBe("3 minutes ago");
    expect(relativeTime("2026-11-20T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-11-14T12:00:00Z", now)).toBe("last week");
  });
});
