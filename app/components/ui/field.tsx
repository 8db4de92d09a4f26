// Labelled form controls with their error messages wired up for assistive technology.
import { useId } from "react";

type ErrorList = string[] | undefined;

/** A field's error messages, referenced from the control by aria-describedby. */
export function FieldErrors({ id, errors }: { id: string; errors: ErrorList }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

const controlClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:border-red-500";

export function Field({
  label,
  inputProps,
  errors,
  hint,
  optional,
}: {
  label: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { key?: string | null };
  errors?: ErrorList;
  hint?: string;
  optional?: boolean;
}) {
  const fallbackId = useId();
  const { key, ...props } = inputProps;
  const id = props.id ?? fallbackId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
        {optional ? <span className="font-normal text-slate-600"> (optional)</span> : null}
      </label>
      <input
        key={key ?? undefined}
        {...props}
        id={id}
        className={controlClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/**
 * A checkbox with its label and a hint beside it (a form's on/off options), for a conform field:
 * checked from the field's initial value ("on"), its errors below the hint.
 */
export function CheckboxField({
  field,
  label,
  hint,
}: {
  field: { id: string; name: string; key?: string | null; initialValue?: unknown; errors?: ErrorList };
  label: string;
  hint: string;
}) {
  const errorId = `${field.id}-error`;
  return (
    <div className="flex items-start gap-2">
      <input
        type="checkbox"
        id={field.id}
        name={field.name}
        key={field.key ?? undefined}
        defaultChecked={field.initialValue === "on"}
        aria-describedby={[`${field.id}-hint`, field.errors?.length ? errorId : null].filter(Boolean).join(" ")}
        className="mt-1 h-4 w-4 rounded border-slate-400"
      />
      <div>
        <label htmlFor={field.id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <p id={`${field.id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
        <FieldErrors id={errorId} errors={field.errors} />
      </div>
    </div>
  );
}

export function TextareaField({
  label,
  textareaProps,
  errors,
  optional,
}: {
  label: string;
  textareaProps: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { key?: string | null };
  errors?: ErrorList;
  optional?: boolean;
}) {
  const fallbackId = useId();
  const { key, ...props } = textareaProps;
  const id = props.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
        {optional ? <span className="font-normal text-slate-600"> (optional)</span> : null}
      </label>
      <textarea
        key={key ?? undefined}
        {...props}
        id={id}
        className={controlClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
      />
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FormAlert({ title, text, id }: { title: string; text: string; id?: string }) {
  return (
    <div id={id} role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{text}</p>
    </div>
  );
}
