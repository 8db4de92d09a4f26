// Live validation for forms on public pages without shipping a schema library: the
// same rules the server runs (app/domain/form-rules.ts), checked on blur, re-checked
// while typing once a field has shown an error, and all at once on submit.
import { useCallback, useEffect, useState } from "react";

import { validateField, validateValues, type FieldErrors, type Rules } from "~/domain/form-rules";

export function useLiteForm<K extends string>({
  rules,
  serverErrors,
  onInvalid,
  onValid,
}: {
  rules: Rules<K>;
  serverErrors?: FieldErrors<K> | null;
  onInvalid?: (errors: FieldErrors<K>) => void;
  onValid?: (event: React.FormEvent<HTMLFormElement>, values: Record<K, string>) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors<K>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);

  const check = useCallback(
    (name: K, value: string) => {
      const fieldErrors = validateField(rules[name], value);
      setErrors((current) => ({ ...current, [name]: fieldErrors.length ? fieldErrors : undefined }));
    },
    [rules],
  );

  const field = (name: K) => ({
    name,
    id: `field-${name}`,
    onBlur: (event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      // Focus moving to this form's submit button: the submit checks everything, and an error
      // appearing now would shift the button away from under the pointer and swallow the click.
      const next = event.relatedTarget as HTMLButtonElement | null;
      if (next?.type === "submit" && next.form === event.currentTarget.form) return;
      check(name, event.currentTarget.value);
    },
    onInput: (event: React.FormEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (errors[name]?.length) check(name, event.currentTarget.value);
    },
  });

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const formData = new FormData(event.currentTarget);
    const raw: Partial<Record<K, unknown>> = {};
    for (const key of Object.keys(rules) as K[]) raw[key] = formData.get(key) ?? undefined;
    const result = validateValues(rules, raw);
    setErrors(result.errors);
    if (!result.ok) {
      event.preventDefault();
      const first = Object.keys(result.errors)[0];
      event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      onInvalid?.(result.errors);
      return;
    }
    onValid?.(event, result.values);
  };

  return { errors, field, onSubmit };
}
