// /persona/{id}/lore: the persona's lorebook (docs/product.md, Lore) — the entries in insertion
// order, a search, an entry's form (add, or ?edit={entryId}), turning one on or off, moving it up
// or down, deleting it, and 'Build lorebook from backstory': proposals the creator keeps or drops,
// with the coverage report. Every control is a plain form (the server checks, redirects with a
// toast); with JavaScript Remix submits them without a reload and conform checks each field as
// it is left.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { controlProps, keepSubmitInPlace } from "~/components/form-controls";
import { PersonaErrorBoundary } from "~/components/persona-not-found";
import { CheckboxField, Field, FormAlert, TextareaField } from "~/components/ui/field";
import {
  LORE_KIND_LABELS,
  LORE_KINDS,
  LORE_LIMITS,
  LORE_TEXT,
  LORE_TOASTS,
  loreEntrySchema,
  orderedEntries,
  type LoreEntry,
} from "~/domain/lorebook";
import { PRODUCT_NAME } from "~/domain/site";
import {
  readFormData,
  redirectWithToast,
  ServiceError,
  invalidSubmission,
  refusedSubmission,
  addLoreEntries,
  addLoreEntry,
  compilePersonaLore,
  deleteLoreEntry,
  getLorebook,
  moveLoreEntry,
  searchLore,
  setLoreEntryEnabled,
  updateLoreEntry,
  type LoreCompilation,
  orNotFound,
  requireUser,
  responseHeaders,
} from "~/services/index.server";
import { Button, buttonClass } from "~/components/ui/button";

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  { title: `${LORE_TEXT.pageTitle(loaderData?.name ?? "Persona")} · ${PRODUCT_NAME}` },
];

/** Kept proposals travel in the form as JSON: up to 200 of 2,000 characters each. */
const MAX_KEEP_BYTES = 2 * 1024 * 1024;

const entrySchema = loreEntrySchema({ form: true });

type EntryView = Pick<
  LoreEntry,
  | "id"
  | "name"
  | "keys"
  | "secondary_keys"
  | "selective"
  | "content"
  | "enabled"
  | "constant"
  | "insertion_order"
  | "case_sensitive"
  | "comment"
  | "use_regex"
  | "kind"
>;

function entryView({ extensions: _e, card: _c, cardAbsent: _a, ...entry }: LoreEntry): EntryView {
  return entry;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const { persona, book } = await orNotFound(ctx, () => getLorebook(user, params.id ?? ""));
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const ordered = orderedEntries(book.entries);
  const editId = url.searchParams.get("edit");
  const editing = editId ? (ordered.find((entry) => entry.id === editId) ?? null) : null;
  return data(
    {
      id: persona.id,
      name: persona.name,
      hasBackstory: !!persona.backstory?.trim(),
      total: ordered.length,
      q,
      entries: searchLore(ordered, q).map(entryView),
      editing: editing ? entryView(editing) : null,
    },
    { headers: responseHeaders(ctx) },
  );
}

const back = (id: string, entryId?: string) => `/persona/${id}/lore${entryId ? `#entry-${entryId}` : ""}`;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const formData = await readFormData(request, MAX_KEEP_BYTES);
  const intent = String(formData.get("intent") ?? "");
  const entryId = String(formData.get("entryId") ?? "");
  const headers = responseHeaders(ctx);
  const done = (to: string, toast: { title: string; description: string }) =>
    redirectWithToast(to, { type: "success", ...toast }, { headers });
  const failed = (error: unknown) => {
    if (!(error instanceof ServiceError)) throw error;
    return data({ message: error.message }, { status: error.status, headers });
  };

  if (intent === "add" || intent === "save") {
    const submission = parseWithZod(formData, { schema: entrySchema });
    const payload = { form: intent, entryId };
    if (submission.status !== "success")
      return invalidSubmission(submission, ctx, payload, { formErrors: [LORE_TOASTS.failed.description] });
    try {
      const entry = await orNotFound(ctx, () =>
        intent === "add"
          ? addLoreEntry(user, id, submission.value, { form: true })
          : updateLoreEntry(user, id, entryId, submission.value, { form: true }),
      );
      return done(back(id, entry.id), intent === "add" ? LORE_TOASTS.added : LORE_TOASTS.saved);
    } catch (error) {
      return refusedSubmission(error, submission, ctx, payload);
    }
  }

  try {
    switch (intent) {
      case "delete":
        await orNotFound(ctx, () => deleteLoreEntry(user, id, entryId));
        return done(back(id), LORE_TOASTS.deleted);
      case "enable":
      case "disable": {
        const entry = await orNotFound(ctx, () => setLoreEntryEnabled(user, id, entryId, intent === "enable"));
        return redirect(back(id, entry.id), { headers });
      }
      case "up":
      case "down": {
        const entry = await orNotFound(ctx, () => moveLoreEntry(user, id, entryId, intent));
        return redirect(back(id, entry.id), { headers });
      }
      case "compile": {
        const compiled = await orNotFound(ctx, () => compilePersonaLore(user, id));
        return data({ compiled }, { headers });
      }
      case "keep": {
        const kept = formData.getAll("keep").flatMap((value) => {
          try {
            return [JSON.parse(String(value)) as unknown];
          } catch {
            return [];
          }
        });
        if (!kept.length) return redirectWithToast(back(id), { type: "info", ...LORE_TOASTS.none }, { headers });
        const added = await orNotFound(ctx, () => addLoreEntries(user, id, kept));
        return done(back(id), LORE_TOASTS.kept(added.length));
      }
      default:
        return data({ message: "Choose what to do with the lorebook." }, { status: 400, headers });
    }
  } catch (error) {
    return failed(error);
  }
}

export default function LorePage() {
  const { id, name, total, q, entries, editing, hasBackstory } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const compiled = answer && "compiled" in answer ? answer.compiled : null;
  const message = answer && "message" in answer && !("result" in answer) ? answer.message : null;
  const result = answer && "result" in answer ? answer : null;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{LORE_TEXT.pageTitle(name)}</h1>
          <p className="mt-1 text-slate-700">{LORE_TEXT.intro}</p>
          <p className="mt-1 text-sm text-slate-600">{LORE_TEXT.limits}</p>
        </div>
        <Link to={`/persona/${id}#lore`} className={buttonClass("secondary", "md", "shrink-0 self-start")}>
          Back to persona
        </Link>
      </div>

      {message ? <FormAlert title="Lorebook Not Changed" text={message} /> : null}

      <section aria-labelledby="build-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="build-heading" className="text-lg font-semibold text-slate-900">
          {LORE_TEXT.build}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Proposes an entry for every person, place, group, event and secret the backstory and the persona&apos;s facts name. Nothing is
          added until you keep it.
        </p>
        <Form method="post" className="mt-3">
          <Button
            type="submit"
            name="intent"
            value="compile"
            disabled={!hasBackstory}
            aria-describedby={hasBackstory ? undefined : "build-needs-backstory"}
            size="base"
          >
            {LORE_TEXT.build}
          </Button>
          {hasBackstory ? null : (
            <p id="build-needs-backstory" className="mt-2 text-sm text-slate-600">
              Write or generate a backstory first.
            </p>
          )}
        </Form>
        {compiled ? <Proposals compiled={compiled} /> : null}
      </section>

      <section aria-labelledby="entries-heading" className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <h2 id="entries-heading" className="text-xl font-semibold text-slate-900">
            Entries <span className="text-base font-normal text-slate-600">({total})</span>
          </h2>
          <Form method="get" role="search" className="flex gap-2">
            <label htmlFor="lore-search" className="sr-only">
              {LORE_TEXT.search}
            </label>
            <input
              id="lore-search"
              type="search"
              name="q"
              defaultValue={q}
              placeholder={LORE_TEXT.search}
              className="w-48 rounded-lg border border-slate-300 px-3 py-2 text-sm sm:w-64"
            />
            <button type="submit" className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800">
              Search
            </button>
            {q ? (
              <Link to={`/persona/${id}/lore`} className="self-center whitespace-nowrap text-sm font-medium text-brand-800 underline">
                {LORE_TEXT.clearSearch}
              </Link>
            ) : null}
          </Form>
        </div>
        {entries.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-slate-600">
            {q ? `No entry holds “${q}”.` : LORE_TEXT.empty}
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Lore entries in insertion order">
            {entries.map((entry, index) => (
              <EntryItem key={entry.id} entry={entry} first={index === 0 || !!q} last={index === entries.length - 1 || !!q} />
            ))}
          </ol>
        )}
      </section>

      <EntryForm
        key={editing ? `edit-${editing.id}` : "add"}
        editing={editing}
        result={result && result.form === (editing ? "save" : "add") ? (result.result as SubmissionResult<string[]>) : undefined}
        openByDefault={total === 0 || !!editing || !!(result && result.form === "add")}
      />
    </div>
  );
}

const rowButton = buttonClass("secondary", "xs");

function EntryItem({ entry, first, last }: { entry: EntryView; first: boolean; last: boolean }) {
  const { id } = useLoaderData<typeof loader>();
  return (
    <li
      id={`entry-${entry.id}`}
      data-testid="lore-entry"
      className={`rounded-2xl border bg-white p-4 shadow-sm ${entry.enabled ? "border-slate-200" : "border-dashed border-slate-300 bg-slate-50"}`}
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <h3 className="text-base font-semibold text-slate-900" dir="auto">
          {entry.name}
        </h3>
        {entry.kind ? (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-900">{LORE_KIND_LABELS[entry.kind]}</span>
        ) : null}
        {entry.enabled ? null : <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-800">Disabled</span>}
        {entry.constant ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">Always included</span> : null}
        <span className="text-xs text-slate-600">Order {entry.insertion_order}</span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        <span className="font-medium">Keys:</span> {entry.keys.join(", ")}
        {entry.secondary_keys.length ? (
          <>
            {" "}
            · <span className="font-medium">{entry.selective ? "Also needs" : "Secondary keys"}:</span> {entry.secondary_keys.join(", ")}
          </>
        ) : null}
      </p>
      <p className="mt-2 whitespace-pre-line text-sm text-slate-900" dir="auto">
        {entry.content}
      </p>
      {entry.comment ? <p className="mt-1 text-xs text-slate-600">Comment: {entry.comment}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={`?edit=${entry.id}#entry-form`} className={rowButton} aria-label={`Edit ${entry.name}`}>
          {LORE_TEXT.edit}
        </Link>
        <Form method="post" action={`/persona/${id}/lore`} className="contents">
          <input type="hidden" name="entryId" value={entry.id} />
          <button
            type="submit"
            name="intent"
            value={entry.enabled ? "disable" : "enable"}
            className={rowButton}
            aria-label={`${entry.enabled ? LORE_TEXT.disable : LORE_TEXT.enable} ${entry.name}`}
          >
            {entry.enabled ? LORE_TEXT.disable : LORE_TEXT.enable}
          </button>
          {first ? null : (
            <button type="submit" name="intent" value="up" className={rowButton} aria-label={`${LORE_TEXT.moveUp}: ${entry.name}`}>
              {LORE_TEXT.moveUp}
            </button>
          )}
          {last ? null : (
            <button type="submit" name="intent" value="down" className={rowButton} aria-label={`${LORE_TEXT.moveDown}: ${entry.name}`}>
              {LORE_TEXT.moveDown}
            </button>
          )}
          <button
            type="submit"
            name="intent"
            value="delete"
            className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
            aria-label={`${LORE_TEXT.delete} ${entry.name}`}
          >
            {LORE_TEXT.delete}
          </button>
        </Form>
      </div>
    </li>
  );
}

const FLAGS = [
  { name: "enabled", label: "Enabled", hint: "Off: kept, but never used in chat." },
  { name: "constant", label: "Always included", hint: "Used in every reply, keys or not." },
  { name: "selective", label: "Needs a secondary key too", hint: "Used only when a key and a secondary key both come up." },
  { name: "case_sensitive", label: "Match case", hint: "Keys match only in the case they are written." },
  { name: "use_regex", label: "Keys are patterns", hint: "Regular expressions; a pattern that could take too long is refused." },
] as const;

function EntryForm({
  editing,
  result,
  openByDefault,
}: {
  editing: EntryView | null;
  result: SubmissionResult<string[]> | undefined;
  openByDefault: boolean;
}) {
  const { id } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const initial: Record<string, string> = editing
    ? {
        name: editing.name,
        kind: editing.kind ?? "",
        keys: editing.keys.join(", "),
        secondary_keys: editing.secondary_keys.join(", "),
        content: editing.content,
        insertion_order: String(editing.insertion_order),
        comment: editing.comment,
        ...Object.fromEntries(FLAGS.map((flag) => [flag.name, editing[flag.name] ? "on" : ""])),
      }
    : { insertion_order: "100", enabled: "on" };
  const [form, fields] = useForm({
    id: editing ? `lore-edit-${editing.id}` : "lore-add",
    lastResult: result,
    defaultValue: initial,
    constraint: getZodConstraint(entrySchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: entrySchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const title = editing ? `Edit “${editing.name}”` : LORE_TEXT.add;
  const body = (
    <Form
      method="post"
      action={`/persona/${id}/lore${editing ? `?edit=${editing.id}` : ""}`}
      {...getFormProps(form)}
      className="mt-4 space-y-4"
    >
      {form.errors?.length ? <FormAlert title={LORE_TOASTS.failed.title} text={form.errors[0]!} /> : null}
      {editing ? <input type="hidden" name="entryId" value={editing.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <Field label="Title" inputProps={{ ...controlProps(fields.name), maxLength: LORE_LIMITS.nameMax }} errors={fields.name.errors} />
        </div>
        <div>
          <label htmlFor={fields.kind.id} className="mb-1 block text-sm font-medium text-slate-800">
            Kind <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <select
            id={fields.kind.id}
            name={fields.kind.name}
            key={fields.kind.key}
            defaultValue={typeof fields.kind.initialValue === "string" ? fields.kind.initialValue : ""}
            onBlur={keepSubmitInPlace}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          >
            <option value="">—</option>
            {LORE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {LORE_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Field
        label="Keys"
        hint="Words that bring the entry into a conversation, separated by commas: names, nicknames, the words used for it."
        inputProps={controlProps(fields.keys)}
        errors={fields.keys.errors}
      />
      <Field
        label="Secondary keys"
        optional
        hint="With 'Needs a secondary key too', one of these must come up as well."
        inputProps={controlProps(fields.secondary_keys)}
        errors={fields.secondary_keys.errors}
      />
      <TextareaField
        label="Content"
        textareaProps={{ ...controlProps(fields.content), rows: 5, maxLength: LORE_LIMITS.contentMax }}
        errors={fields.content.errors}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="Order"
          hint="Lower numbers go into the context first."
          inputProps={{
            ...controlProps(fields.insertion_order),
            type: "number",
            min: 0,
            max: LORE_LIMITS.insertionOrderMax,
            step: 1,
            inputMode: "numeric",
          }}
          errors={fields.insertion_order.errors}
        />
        <div className="sm:col-span-2">
          <Field
            label="Comment"
            optional
            hint="A note for you; never sent to a model."
            inputProps={{ ...controlProps(fields.comment), maxLength: LORE_LIMITS.commentMax }}
            errors={fields.comment.errors}
          />
        </div>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Options</legend>
        {FLAGS.map((flag) => (
          <CheckboxField key={flag.name} field={fields[flag.name]} label={flag.label} hint={flag.hint} />
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value={editing ? "save" : "add"} disabled={busy} size="base">
          {editing ? LORE_TEXT.save : LORE_TEXT.add}
        </Button>
        {editing ? (
          <Link to={`/persona/${id}/lore#entry-${editing.id}`} className="self-center text-sm font-medium text-brand-800 underline">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
  return (
    <section
      id="entry-form"
      aria-labelledby="entry-form-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      {editing ? (
        <>
          <h2 id="entry-form-heading" className="text-lg font-semibold text-slate-900" dir="auto">
            {title}
          </h2>
          {body}
        </>
      ) : (
        <details open={openByDefault}>
          <summary id="entry-form-heading" className="cursor-pointer text-lg font-semibold text-slate-900">
            {title}
          </summary>
          {body}
        </details>
      )}
    </section>
  );
}

function Proposals({ compiled }: { compiled: LoreCompilation }) {
  const { id } = useLoaderData<typeof loader>();
  return (
    <div className="mt-5 space-y-5">
      {compiled.proposals.length === 0 ? (
        <p role="status" className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
          Every named thing already has an entry: nothing new to propose.
        </p>
      ) : (
        <Form method="post" action={`/persona/${id}/lore`} aria-labelledby="proposals-heading" className="space-y-3">
          <h3 id="proposals-heading" className="font-semibold text-slate-900">
            Proposals ({compiled.proposals.length})
          </h3>
          <p role="status" className="text-sm text-slate-700">
            Keep the ones you want: clear a box to drop a proposal. You can edit every entry once it is kept.
          </p>
          <ul className="space-y-2">
            {compiled.proposals.map((proposal, index) => (
              <li key={index} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3" data-testid="lore-proposal">
                <input
                  type="checkbox"
                  id={`proposal-${index}`}
                  name="keep"
                  value={JSON.stringify(proposal)}
                  defaultChecked
                  className="mt-1 h-4 w-4 rounded border-slate-400"
                />
                <label htmlFor={`proposal-${index}`} className="min-w-0 text-sm">
                  <span className="font-semibold text-slate-900">{proposal.name}</span>
                  {proposal.kind ? <span className="ml-2 text-xs text-brand-900">{LORE_KIND_LABELS[proposal.kind]}</span> : null}
                  <span className="block text-slate-700">Keys: {proposal.keys.join(", ")}</span>
                  <span className="block whitespace-pre-line text-slate-800">{proposal.content}</span>
                </label>
              </li>
            ))}
          </ul>
          <Button type="submit" name="intent" value="keep" size="base">
            {LORE_TEXT.keep}
          </Button>
        </Form>
      )}
      <div>
        <h3 className="font-semibold text-slate-900">Coverage</h3>
        <p className="text-sm text-slate-700">What the backstory and the persona&apos;s facts name, and the entry that covers each.</p>
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-slate-700">
              <th scope="col" className="py-1 pr-3 font-medium">
                Named
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Kind
              </th>
              <th scope="col" className="py-1 font-medium">
                Covered by
              </th>
            </tr>
          </thead>
          <tbody>
            {compiled.coverage.map((item, index) => (
              <tr key={index} className="border-b border-slate-100" data-testid="lore-coverage">
                <td className="py-1 pr-3 text-slate-900">{item.name}</td>
                <td className="py-1 pr-3 text-slate-700">{item.kind ? LORE_KIND_LABELS[item.kind] : "—"}</td>
                <td className="py-1 text-slate-800">{item.coveredBy}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {compiled.stale.length ? (
        <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <h3 className="font-semibold">Entries that no longer match the backstory</h3>
          <ul className="mt-1 list-disc pl-5">
            {compiled.stale.map((item) => (
              <li key={item.entryId}>
                <a href={`#entry-${item.entryId}`} className="underline">
                  {item.name}
                </a>
                : {item.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = PersonaErrorBoundary;
