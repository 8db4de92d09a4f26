// For tests that call route loaders and actions directly, as a browser would through them.

/** A browser's cookie jar: what Set-Cookie gave, sent back as Cookie. */
export class Jar {
  cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      const expired = attrs.some((a) => /max-age=0/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return response;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** The Response a loader or action returned or threw (Remix throws redirects and 4xx answers). */
export async function caught(run: () => Promise<unknown>): Promise<Response> {
  try {
    return (await run()) as Response;
  } catch (thrown) {
    return thrown as Response;
  }
}
