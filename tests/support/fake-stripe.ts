// A stand-in for the Stripe API at the HTTP boundary, for tests of the billing adapter with the
// real `stripe` package (pointed at it with STRIPE_API_URL) and for the e2e journey. It listens
// on 127.0.0.1 and speaks Stripe's HTTP for what the app calls:
//
// - POST /v1/customers, GET /v1/customers/{id}
// - POST /v1/checkout/sessions (subscription mode), GET /v1/checkout/sessions/{id}
// - POST /v1/billing_portal/sessions
// - POST /v1/subscriptions (for the bench: a subscription without Checkout), GET /v1/subscriptions/{id}
//
// Bodies are form-encoded (`metadata[user_id]=…`, `line_items[0][price]=…`) as the SDK sends
// them; answers are Stripe-shaped objects with a `request-id` header; errors are
// `{ error: { type, code, message, param, doc_url } }` with Stripe's status (401 for a wrong key,
// 404 `resource_missing` for an unknown id, 400 for a missing parameter). Every API request is
// recorded (with its Idempotency-Key), and a repeated idempotency key answers the first answer.
//
// It also plays Stripe's hosted pages, as tiny HTML forms that work without JavaScript: the
// Checkout page (`session.url`) has 'Pay and subscribe', which creates the subscription, POSTs
// signed `customer.subscription.created`, `checkout.session.completed` and `invoice.paid` events
// to the app's webhook and sends the browser to the success URL; the portal page has 'Cancel
// subscription', which cancels at once, POSTs a signed `customer.subscription.deleted` and
// returns to the app. Events are signed with the SDK's own `generateTestHeaderString`.
//
// Tests can make the next matching API call fail or hang (`failNext`), build and sign events
// (`signedEvent`) and deliver them (`deliver`).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import Stripe from "stripe";

export interface StripeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  params: Record<string, string>;
}

export interface StripeFailure {
  method?: string;
  /** Matches the request's path (a string must match exactly). */
  path: string | RegExp;
  /** Answer with this Stripe error… */
  status?: number;
  type?: string;
  code?: string;
  message?: string;
  /** …after waiting this long (beyond the client's timeout: a hanging Stripe). */
  delayMs?: number;
}

type Json = Record<string, unknown>;

export interface FakeStripe {
  /** The API root to give the app as STRIPE_API_URL. */
  url: string;
  apiKey: string;
  webhookSecret: string;
  priceId: string;
  /** Where events are delivered (the app's POST /api/webhooks/stripe); settable after start. */
  webhookUrl: string | null;
  requests: StripeRequest[];
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  checkoutSessions: Map<string, Json>;
  /** Webhook deliveries made by the hosted pages, with the app's answer. */
  deliveries: { type: string; id: string; status: number }[];
  failNext(failure: StripeFailure): void;
  /** A Stripe event of this type about this object, its JSON and a valid Stripe-Signature header. */
  signedEvent(
    type: string,
    object: Json,
    options?: { id?: string; timestamp?: number; secret?: string },
  ): { id: string; payload: string; header: string };
  /** Signs and POSTs an event to webhookUrl; returns the app's status. */
  deliver(type: string, object: Json): Promise<number>;
  /** Makes a subscription as Checkout would (status active, or trialing with trial days). */
  createSubscription(input: { customer: string; userId?: string; trialDays?: number; status?: string }): Json;
  updateSubscription(id: string, patch: Json): Json;
  reset(): void;
  close(): Promise<void>;
}

export interface FakeStripeOptions {
  port?: number;
  apiKey?: string;
  webhookSecret?: string;
  priceId?: string;
  webhookUrl?: string;
}

const DAY = 24 * 60 * 60;
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function stripeError(res: ServerResponse, status: number, error: Json) {
  res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
  res.end(
    JSON.stringify({ error: { doc_url: `https://stripe.com/docs/error-codes/${error.code ?? "invalid-request"}`, ...error } }, null, 2),
  );
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
  res.end(JSON.stringify(body, null, 2));
}

function html(res: ServerResponse, body: string) {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe (test double)</title></head><body>${body}</body></html>`,
  );
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const apiKey = options.apiKey ?? "sk_test_fake_personaforge";
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString("hex")}`;
  const priceId = options.priceId ?? "price_fake_premium_monthly";
  const failures: StripeFailure[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const portalSessions = new Map<string, Json>();

  const fake: FakeStripe = {
    url: "",
    apiKey,
    webhookSecret,
    priceId,
    webhookUrl: options.webhookUrl ?? null,
    requests: [],
    customers: new Map(),
    subscriptions: new Map(),
    checkoutSessions: new Map(),
    deliveries: [],
    failNext: (failure) => void failures.push(failure),
    signedEvent(type, object, { id = newId("evt"), timestamp = now(), secret = webhookSecret } = {}) {
      const payload = JSON.stringify(
        {
          id,
          object: "event",
          api_version: Stripe.API_VERSION,
          created: timestamp,
          data: { object },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
      return { id, payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
    },
    async deliver(type, object) {
      if (!fake.webhookUrl) throw new Error("fake Stripe: no webhookUrl to deliver to");
      const { id, payload, header } = fake.signedEvent(type, object);
      const response = await fetch(fake.webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "stripe-signature": header,
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        },
        body: payload,
      });
      await response.arrayBuffer();
      fake.deliveries.push({ type, id, status: response.status });
      return response.status;
    },
    createSubscription({ customer, userId, trialDays = 0, status }) {
      const id = newId("sub");
      const start = now();
      const trialEnd = trialDays > 0 ? start + trialDays * DAY : null;
      const periodEnd = trialEnd ?? start + 30 * DAY;
      const subscription: Json = {
        id,
        object: "subscription",
        customer,
        status: status ?? (trialEnd ? "trialing" : "active"),
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        created: start,
        start_date: start,
        currency: "usd",
        collection_method: "charge_automatically",
        trial_start: trialEnd ? start : null,
        trial_end: trialEnd,
        metadata: userId ? { user_id: userId } : {},
        items: {
          object: "list",
          data: [
            {
              id: newId("si"),
              object: "subscription_item",
              created: start,
              current_period_start: start,
              current_period_end: periodEnd,
              quantity: 1,
              subscription: id,
              price: {
                id: priceId,
                object: "price",
                active: true,
                currency: "usd",
                unit_amount: 999,
                recurring: { interval: "month", interval_count: 1 },
              },
            },
          ],
          has_more: false,
          total_count: 1,
          url: `/v1/subscription_items?subscription=${id}`,
        },
        latest_invoice: newId("in"),
        livemode: false,
      };
      fake.subscriptions.set(id, subscription);
      return subscription;
    },
    updateSubscription(id, patch) {
      const current = fake.subscriptions.get(id);
      if (!current) throw new Error(`fake Stripe: no subscription ${id}`);
      const next = { ...current, ...patch };
      fake.subscriptions.set(id, next);
      return next;
    },
    reset() {
      failures.length = 0;
      fake.requests.length = 0;
      fake.deliveries.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const invoiceFor = (subscription: Json, status: "paid" | "open") => ({
    id: subscription.latest_invoice,
    object: "invoice",
    customer: subscription.customer,
    status,
    amount_paid: status === "paid" ? 999 : 0,
    currency: "usd",
    parent: { type: "subscription_details", subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
    livemode: false,
  });

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const raw = req.method === "GET" ? new URL(req.url ?? "/", "http://x").searchParams.toString() : await readBody(req);
    const params = Object.fromEntries(new URLSearchParams(raw));
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));
    fake.requests.push({ method: req.method ?? "GET", path, headers, params });

    const failureAt = failures.findIndex(
      (f) => (!f.method || f.method === req.method) && (typeof f.path === "string" ? f.path === path : f.path.test(path)),
    );
    if (failureAt >= 0) {
      const [failure] = failures.splice(failureAt, 1);
      if (failure.delayMs) await new Promise((r) => setTimeout(r, failure.delayMs));
      if (res.destroyed) return;
      if (failure.status) {
        return stripeError(res, failure.status, {
          type: failure.type ?? (failure.status >= 500 ? "api_error" : "invalid_request_error"),
          ...(failure.code ? { code: failure.code } : {}),
          message: failure.message ?? "An error occurred with our connection to Stripe.",
        });
      }
    }

    const auth = headers.authorization ?? "";
    if (auth !== `Bearer ${apiKey}`) {
      return stripeError(res, 401, {
        type: "invalid_request_error",
        message: auth ? `Invalid API Key provided: ${auth.slice(7, 15)}${"*".repeat(8)}` : "You did not provide an API key.",
      });
    }

    const key = headers["idempotency-key"];
    const cacheKey = key ? `${req.method} ${path} ${key}` : null;
    if (cacheKey && idempotent.has(cacheKey)) {
      const first = idempotent.get(cacheKey)!;
      return json(res, first.status, first.body);
    }
    const answer = (status: number, body: unknown) => {
      if (cacheKey) idempotent.set(cacheKey, { status, body });
      json(res, status, body);
    };
    const missing = (what: string, id: string) =>
      stripeError(res, 404, { type: "invalid_request_error", code: "resource_missing", param: "id", message: `No such ${what}: '${id}'` });
    const required = (name: string) =>
      stripeError(res, 400, {
        type: "invalid_request_error",
        code: "parameter_missing",
        param: name,
        message: `Missing required param: ${name}.`,
      });
    const metadata = (prefix: string) =>
      Object.fromEntries(
        Object.entries(params)
          .filter(([k]) => k.startsWith(`${prefix}[`))
          .map(([k, v]) => [k.slice(prefix.length + 1, -1), v]),
      );

    let match: RegExpExecArray | null;
    if (req.method === "POST" && path === "/v1/customers") {
      const customer = {
        id: newId("cus"),
        object: "customer",
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: metadata("metadata"),
        created: now(),
        livemode: false,
      };
      fake.customers.set(customer.id, customer);
      return answer(200, customer);
    }
    if (req.method === "GET" && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = fake.customers.get(match[1]);
      return customer ? answer(200, customer) : missing("customer", match[1]);
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      if (!params.success_url) return required("success_url");
      if (params.mode !== "subscription")
        return stripeError(res, 400, {
          type: "invalid_request_error",
          param: "mode",
          message: "This test double only knows subscription mode.",
        });
      if (params["line_items[0][price]"] !== priceId) return missing("price", params["line_items[0][price]"] ?? "");
      if (params.customer && !fake.customers.has(params.customer)) return missing("customer", params.customer);
      const id = `cs_test_${randomBytes(16).toString("hex")}`;
      const session: Json = {
        id,
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        payment_status: "unpaid",
        customer: params.customer ?? null,
        client_reference_id: params.client_reference_id ?? null,
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        subscription: null,
        metadata: metadata("metadata"),
        subscription_data: {
          metadata: metadata("subscription_data[metadata]"),
          trial_period_days: Number(params["subscription_data[trial_period_days]"] ?? 0) || null,
        },
        url: `${fake.url}/c/pay/${id}`,
        created: now(),
        expires_at: now() + DAY,
        livemode: false,
      };
      fake.checkoutSessions.set(id, session);
      const { subscription_data: _, ...visible } = session;
      return answer(200, visible);
    }
    if (req.method === "GET" && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = fake.checkoutSessions.get(match[1]);
      return session ? answer(200, session) : missing("checkout.session", match[1]);
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!params.customer) return required("customer");
      if (!fake.customers.has(params.customer)) return missing("customer", params.customer);
      const id = newId("bps");
      const session = {
        id,
        object: "billing_portal.session",
        customer: params.customer,
        return_url: params.return_url ?? null,
        url: `${fake.url}/p/session/${id}`,
        created: now(),
        livemode: false,
      };
      portalSessions.set(id, session);
      return answer(200, session);
    }
    if (req.method === "POST" && path === "/v1/subscriptions") {
      if (!params.customer) return required("customer");
      if (!fake.customers.has(params.customer)) return missing("customer", params.customer);
      if (params["items[0][price]"] !== priceId) return missing("price", params["items[0][price]"] ?? "");
      const meta = metadata("metadata");
      return answer(
        200,
        fake.createSubscription({ customer: params.customer, userId: meta.user_id, trialDays: Number(params.trial_period_days ?? 0) }),
      );
    }
    if (req.method === "GET" && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = fake.subscriptions.get(match[1]);
      return subscription ? answer(200, subscription) : missing("subscription", match[1]);
    }
    return stripeError(res, 404, { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path}).` });
  }

  /** The hosted Checkout and portal pages: plain HTML forms, no JavaScript needed. */
  async function hosted(req: IncomingMessage, res: ServerResponse, path: string) {
    let match: RegExpExecArray | null;
    if ((match = /^\/c\/pay\/([^/]+)$/.exec(path)) && req.method === "GET") {
      const session = fake.checkoutSessions.get(match[1]);
      if (!session) return html(res, "<h1>Something went wrong</h1><p>This Checkout Session does not exist.</p>");
      return html(
        res,
        `<main><h1>Subscribe to PersonaForge Premium</h1><p>$9.99 per month</p>${
          session.subscription_data && (session.subscription_data as Json).trial_period_days
            ? `<p>${(session.subscription_data as Json).trial_period_days} days free</p>`
            : ""
        }<form method="post" action="/c/pay/${escape(match[1])}/confirm"><button type="submit">Pay and subscribe</button></form>${
          session.cancel_url ? `<p><a href="${escape(String(session.cancel_url))}">Back to PersonaForge</a></p>` : ""
        }</main>`,
      );
    }
    if ((match = /^\/c\/pay\/([^/]+)\/confirm$/.exec(path)) && req.method === "POST") {
      await readBody(req);
      const session = fake.checkoutSessions.get(match[1]);
      if (!session || session.status !== "open") return html(res, "<h1>This Checkout Session is no longer open.</h1>");
      const data = session.subscription_data as { metadata: Record<string, string>; trial_period_days: number | null };
      const subscription = fake.createSubscription({
        customer: String(session.customer),
        userId: data.metadata.user_id,
        trialDays: data.trial_period_days ?? 0,
      });
      Object.assign(session, {
        status: "complete",
        payment_status: data.trial_period_days ? "no_payment_required" : "paid",
        subscription: subscription.id,
      });
      const { subscription_data: _, ...completed } = session;
      await fake.deliver("customer.subscription.created", subscription);
      await fake.deliver("checkout.session.completed", completed);
      await fake.deliver("invoice.paid", invoiceFor(subscription, "paid"));
      res.writeHead(303, { location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", String(session.id)) });
      return res.end();
    }
    if ((match = /^\/p\/session\/([^/]+)$/.exec(path)) && req.method === "GET") {
      const session = portalSessions.get(match[1]);
      if (!session) return html(res, "<h1>This portal session has expired.</h1>");
      const live = [...fake.subscriptions.values()].filter((s) => s.customer === session.customer && s.status !== "canceled");
      return html(
        res,
        `<main><h1>PersonaForge billing</h1>${
          live.length
            ? live
                .map(
                  (s) =>
                    `<p>Premium, ${escape(String(s.status))}</p><form method="post" action="/p/session/${escape(match![1])}/cancel/${escape(String(s.id))}"><button type="submit">Cancel subscription</button></form>`,
                )
                .join("")
            : "<p>No active subscription.</p>"
        }<p><a href="${escape(String(session.return_url ?? "/"))}">Return to PersonaForge</a></p></main>`,
      );
    }
    if ((match = /^\/p\/session\/([^/]+)\/cancel\/([^/]+)$/.exec(path)) && req.method === "POST") {
      await readBody(req);
      const session = portalSessions.get(match[1]);
      const subscription = fake.subscriptions.get(match[2]);
      if (!session || !subscription || subscription.customer !== session.customer) return html(res, "<h1>Nothing to cancel.</h1>");
      const ended = fake.updateSubscription(String(subscription.id), {
        status: "canceled",
        canceled_at: now(),
        ended_at: now(),
        cancel_at_period_end: false,
      });
      await fake.deliver("customer.subscription.deleted", ended);
      res.writeHead(303, { location: String(session.return_url ?? "/") });
      return res.end();
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("Not found");
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const handle =
      path === "/health"
        ? Promise.resolve(json(res, 200, { ok: true }))
        : path.startsWith("/v1/")
          ? api(req, res, path)
          : hosted(req, res, path);
    handle.catch((error: unknown) => {
      if (!res.headersSent)
        stripeError(res, 500, { type: "api_error", message: `fake Stripe: ${error instanceof Error ? error.message : String(error)}` });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
