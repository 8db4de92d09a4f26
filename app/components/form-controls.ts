// What a conform field hands to our labelled controls (components/ui/field.tsx): its id, name,
// the value to show again after a refused post, and the key that refreshes it.
/**
 * Focus moving to this form's submit button: the submit checks everything, and an error
 * appearing now would shift the button away from under the pointer and swallow the click.
 * Stopping the event here keeps it from conform's blur check (a listener on the document).
 */
export function keepSubmitInPlace(event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) {
  const next = event.relatedTarget as HTMLButtonElement | null;
  if (next?.type === "submit" && next.form === event.currentTarget.form) event.stopPropagation();
}

/** Takes one of useForm's fields. */
export function controlProps(field: { id: string; name: string; key?: string; initialValue?: unknown }) {
  const value = field.initialValue;
  return {
    id: field.id,
    name: field.name,
    key: field.key ?? null,
    defaultValue: typeof value === "string" ? value : undefined,
    onBlur: keepSubmitInPlace,
  };
}
