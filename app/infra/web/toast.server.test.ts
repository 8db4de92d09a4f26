import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "pf-toast-"));

const { getToast, redirectWithToast } = await import("./toast.server");
const { loader } = await import("~/root");

function cookieFrom(response: Response) {
  return response.headers.get("Set-Cookie")!.split(";")[0];
}

describe("flash toasts", () => {
  let cookie: string;
  beforeAll(async () => {
    const response = await redirectWithToast("/somewhere", {
      type: "success",
      title: "Draft Saved",
      description: "Your persona draft has been saved successfully.",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/somewhere");
    expect(response.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    expect(response.headers.get("Set-Cookie")).toMatch(/SameSite=Lax/i);
    cookie = cookieFrom(response);
  });

  it("the page the redirect lands on shows the toast once, and the cookie is cleared", async () => {
    const request = new Request("http://localhost/somewhere", { headers: { Cookie: cookie } });
    const result = (await loader({ request, params: {}, context: {} })) as unknown as {
      data: { toast: { title: string; description: string; type: string } };
      init: { headers: Headers };
    };
    expect(result.data.toast).toMatchObject({
      type: "success",
      title: "Draft Saved",
      description: "Your persona draft has been saved successfully.",
    });
    expect(new Headers(result.init.headers).get("Set-Cookie")).toMatch(/pf_toast=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("a tampered cookie shows nothing", async () => {
    const [name, value] = cookie.split("=");
    const forged = `${name}=${value.slice(0, -3)}abc`;
    const { toast } = await getToast(new Request("http://localhost/", { headers: { Cookie: forged } }));
    expect(toast).toBeNull();
  });

  it("no cookie, no toast and no Set-Cookie", async () => {
    const result = await getToast(new Request("http://localhost/"));
    expect(result).toEqual({ toast: null, headers: null });
  });
});
