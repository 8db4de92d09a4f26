// /my-personas (docs/product.md, Library): the library. Tabs, search and sort live in the URL and are a GET
// form, so they work without JavaScript; with JavaScript the list follows the search as the
// creator types. The database filters, sorts and pages. Cards archive, restore and delete
// through form posts that come back here with a toast; a character card is imported through
// a conform form checked with its schema, here and in the action.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";

import { CreatePersonaButton } from "~/components/create-gate";
import { ImportCard } from "~/components/import-card";
import { PersonaCard } from "~/components/persona-card";
import { ActionToast } from "~/components/toaster";
import { SparklesIcon, UserIcon } from "~/components/ui/icons";
import { LIST_SORTS, LIST_TABS, LIST_TEXT, listHref, parseListQuery, type ListQuery } from "~/domain/persona-list";
import { cardCheckSentence } from "~/domain/card-targets";
import { PRODUCT_NAME } from "~/domain/site";
import {
  httpError,
  readFormData,
  redirectWithToast,
  ServiceError,
  importCardFile,
  importToast,
  IMPORT_TOASTS,
  MAX_CARD_FORM_BYTES,
  parseCardImportPost,
  cardPersona,
  listPersonas,
  requireUser,
  responseHeaders,
  currentVersionFlags,
} from "~/services/index.server";
import { flaggedOften } from "~/domain/reply-check-text";
import { Button, buttonClass } from "~/components/ui/button";

export const meta: MetaFunction = () => [{ title: `${LIST_TEXT.heading} · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const query = parseListQuery(new URL(request.url).searchParams);
  const page = await listPersonas(
    user,
    {
      status: query.tab === "archived" ? "archived" : "not-archived",
      q: query.q,
      sort: query.sort,
      page: query.page,
    },
    "card",
  );
  const now = new Date();
  // Each card's 'Slips in chat' badge (docs/product.md, Chat: checks on your chats).
  const flags = await currentVersionFlags(
    user,
    page.items.map((persona) => persona.id),
  );
  const personas = page.items.map((persona) => {
    const chat = flags.get(persona.id);
    return { ...cardPersona(persona, now), chatFlags: chat && flaggedOften(chat.checked, chat.flagged) ? chat : null };
  });
  return data(
    { query: { ...query, page: page.page }, personas, total: page.total, pageCount: page.pageCount },
    { headers: responseHeaders(ctx) },
  );
}

/** Import a character card (PNG or JSON) from the library page: a multipart form post. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const form = await readFormData(request, MAX_CARD_FORM_BYTES);
  if (form.get("intent") !== "import") return httpError(400, "Unknown action.");
  const submission = parseCardImportPost(form);
  const failed = (status: number, message: string, headers = responseHeaders(ctx)) =>
    data(
      {
        result: submission.reply({ fieldErrors: { file: [message] } }),
        toast: { type: "error" as const, title: IMPORT_TOASTS.failed.title, description: message },
      },
      { status, headers },
    );
  if (submission.status !== "success") return failed(400, submission.error?.file?.[0] ?? IMPORT_TOASTS.failed.title);
  try {
    const persona = await importCardFile(user, new Uint8Array(await submission.value.file.arrayBuffer()));
    // A card that does not say everything a persona needs goes to the one short step that asks for it.
    const draft = persona.status === "in_progress";
    const checked = cardCheckSentence(persona.cardCheck);
    const toast = importToast(draft ? IMPORT_TOASTS.importedDraft : IMPORT_TOASTS.imported, [
      ...persona.importNotes,
      ...(checked ? [checked] : []),
    ]);
    return redirectWithToast(draft ? `/persona/${persona.id}/finish-import` : `/persona/${persona.id}`, toast, {
      headers: responseHeaders(ctx),
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const headers = responseHeaders(ctx);
    if (error.retryAfterSeconds) headers.set("Retry-After", String(error.retryAfterSeconds));
    // What the file holds (not a card, too large, over the hourly quota or the plan) is said beside it.
    return failed(error.status, error.message, headers);
  }
}

const SEARCH_DELAY_MS = 250;

export default function MyPersonas() {
  const { query, personas, total, pageCount } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const returnTo = `${location.pathname}${location.search}`;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/my-personas";

  useEffect(() => () => clearTimeout(timer.current), []);

  // Back and Forward change the URL under the form: show what the list shows, except in a
  // field the creator is typing in.
  const searchRef = useRef<HTMLInputElement>(null);
  const sortRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (searchRef.current && document.activeElement !== searchRef.current) searchRef.current.value = query.q;
    if (sortRef.current) sortRef.current.value = query.sort;
  }, [query.q, query.sort]);

  // With JavaScript the list follows the form: typing (debounced) and choosing a sort.
  const follow = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, delay);
  };

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{LIST_TEXT.heading}</h1>
        <CreatePersonaButton className={buttonClass("primary", "base", "inline-flex items-center gap-2")}>
          <SparklesIcon />
          {LIST_TEXT.create}
        </CreatePersonaButton>
      </div>

      <ActionToast toast={actionData?.toast} />
      <ImportCard lastResult={actionData?.result} />

      <nav aria-label="Persona tabs" className="border-b border-slate-200">
        <ul className="-mb-px flex gap-6">
          {LIST_TABS.map((tab) => {
            const current = tab.id === query.tab;
            return (
              <li key={tab.id}>
                <Link
                  to={listHref({ ...query, tab: tab.id, page: 1 })}
                  aria-current={current ? "page" : undefined}
                  preventScrollReset
                  className={`inline-block border-b-2 px-1 pb-3 text-sm font-semibold ${
                    current ? "border-brand-700 text-brand-800" : "border-transparent text-slate-600 hover:text-slate-900"
                  }`}
                >
                  {tab.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <Form ref={formRef} method="get" role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end">
        {query.tab !== "all" ? <input type="hidden" name="tab" value={query.tab} /> : null}
        <div className="flex-1">
          <label htmlFor="persona-search" className="mb-1 block text-sm font-medium text-slate-800">
            {LIST_TEXT.searchLabel}
          </label>
          <input
            ref={searchRef}
            id="persona-search"
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={100}
            placeholder={LIST_TEXT.searchPlaceholder}
            onChange={() => follow(SEARCH_DELAY_MS)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600"
          />
        </div>
        <div>
          <label htmlFor="persona-sort" className="mb-1 block text-sm font-medium text-slate-800">
            {LIST_TEXT.sortLabel}
          </label>
          <select
            ref={sortRef}
            id="persona-sort"
            name="sort"
            defaultValue={query.sort}
            onChange={() => follow(0)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 sm:w-48"
          >
            {LIST_SORTS.map((sort) => (
              <option key={sort.id} value={sort.id}>
                {sort.label}
              </option>
            ))}
          </select>
        </div>
        {/* Without JavaScript the form is sent with this button (or Enter); with it the list also follows
            as you type. It stays after hydration, so the row does not move when the page comes alive. */}
        <Button type="submit" variant="secondary" size="base">
          Apply
        </Button>
      </Form>

      <section aria-labelledby="results-heading" aria-busy={loading || undefined}>
        <h2 id="results-heading" className="sr-only">
          {query.tab === "archived" ? "Archived personas" : "All personas"}
        </h2>
        <p role="status" className="mb-3 text-sm text-slate-600">
          {loading ? LIST_TEXT.loading : `${total} ${total === 1 ? "persona" : "personas"}${query.q ? ` matching “${query.q}”` : ""}`}
        </p>
        {personas.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
            <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-2xl text-brand-700">
              <UserIcon />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{LIST_TEXT.emptyTitle}</h3>
            {query.q ? (
              // Nothing matches the search: say so, and offer the way back to the whole list.
              <>
                <p className="mt-1 text-slate-600">{LIST_TEXT.noMatch(query.q)}</p>
                <Link
                  to={listHref({ ...query, q: "", page: 1 })}
                  className={buttonClass("primary", "base", "mt-5 inline-flex items-center gap-2")}
                >
                  {LIST_TEXT.clearSearch}
                </Link>
              </>
            ) : (
              <>
                <p className="mt-1 text-slate-600">{LIST_TEXT.emptyText}</p>
                <CreatePersonaButton className={buttonClass("primary", "base", "mt-5 inline-flex items-center gap-2")}>
                  <SparklesIcon />
                  {LIST_TEXT.create}
                </CreatePersonaButton>
              </>
            )}
          </div>
        ) : (
          <ul className={`grid gap-6 sm:grid-cols-2 lg:grid-cols-3 ${loading ? "opacity-60" : ""}`}>
            {personas.map((persona) => (
              <li key={persona.id} className="min-w-0">
                <PersonaCard persona={persona} actions={{ archive: true, restore: true, delete: true }} returnTo={returnTo} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {pageCount > 1 ? <Pagination query={query} pageCount={pageCount} /> : null}
    </div>
  );
}

function Pagination({ query, pageCount }: { query: ListQuery; pageCount: number }) {
  const link = buttonClass("secondary", "sm");
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3">
      {query.page > 1 ? (
        <Link to={listHref({ ...query, page: query.page - 1 })} className={link} rel="prev">
          <span aria-hidden="true">←</span> Previous
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-700">
        Page {query.page} of {pageCount}
      </p>
      {query.page < pageCount ? (
        <Link to={listHref({ ...query, page: query.page + 1 })} className={link} rel="next">
          Next <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
