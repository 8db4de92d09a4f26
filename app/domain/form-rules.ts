// Small, dependency-free field rules for forms on public pages, where the whole page
// must stay under 100 KB of JavaScript (zod alone is ~26 KB gzip). The server runs the
// very same rules, so both give the documented messages (docs/product.md). See docs/decisions/002.

export type Rule = (value: string) => string | undefined;
export type Rules<K extends string> = Record<K, Rule[]>;
export type FieldErrors<K extends string = string> = Partial<Record<K, string[]>>;

// The HTML living standard's definition of a valid e-mail address, plus a dot in the domain.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export const rule = {
  required:
    (message: string): Rule =>
    (v) =>
      v.trim() === "" ? message : undefined,
  minLength:
    (min: number, message: string): Rule =>
    (v) =>
      v.trim() !== "" && [...v.trim()].length < min ? message : undefined,
  maxLength:
    (max: number, message: string): Rule =>
    (v) =>
      [...v.trim()].length > max ? message : undefined,
  email:
    (message: string): Rule =>
    (v) =>
      v.trim() !== "" && (v.trim().length > 254 || !EMAIL.test(v.trim())) ? message : undefined,
  pattern:
    (re: RegExp, message: string): Rule =>
    (v) =>
      v !== "" && !re.test(v) ? message : undefined,
};

export function validateField(rules: Rule[], value: string): string[] {
  const errors: string[] = [];
  for (const check of rules) {
    const error = check(value);
    if (error && !errors.includes(error)) errors.push(error);
  }
  return errors;
}

export interface Validation<K extends string> {
  ok: boolean;
  values: Record<K, string>;
  errors: FieldErrors<K>;
}

/** Validates raw values (anything not a string counts as empty) and trims what passes. */
export function validateValues<K extends string>(rules: Rules<K>, raw: Partial<Record<K, unknown>>): Validation<K> {
  const values = {} as Record<K, string>;
  const errors: FieldErrors<K> = {};
  for (const key of Object.keys(rules) as K[]) {
    const value = typeof raw[key] === "string" ? (raw[key] as string) : "";
    const fieldErrors = validateField(rules[key], value);
    if (fieldErrors.length) errors[key] = fieldErrors;
    values[key] = value.trim();
  }
  return { ok: Object.keys(errors).length === 0, values, errors };
}

export function formDataValues<K extends string>(rules: Rules<K>, formData: FormData): Partial<Record<K, unknown>> {
  const raw: Partial<Record<K, unknown>> = {};
  for (const key of Object.keys(rules) as K[]) raw[key] = formData.get(key) ?? undefined;
  return raw;
}

/**
 * Field errors from a schema's issues: each field's messages in order, each once, under the key
 * `keyOf` gives the issue's first path segment.
 */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  keyOf: (field: PropertyKey | undefined) => string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const list = (errors[keyOf(issue.path[0])] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
}
