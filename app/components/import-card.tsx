// 'Import a Character Card' on the library page (docs/product.md, Exports and character cards):
// a multipart form posting the card file to the library's action, which parses it with the
// form's schema and answers a refusal as the form's last result, with or without JavaScript.
// With JavaScript conform checks that a file was chosen first, by the same rule (card-file.ts),
// through its own parse, so the library page ships no schema library.
import { getFormProps, parse, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useId } from "react";

import { CARD_IMPORT_MESSAGES, isChosenFile } from "~/domain/card-file";

import { UploadIcon } from "./ui/icons";
import { Button } from "./ui/button";

/** The form's submission by the rule the card import schema holds: a file was chosen. */
export function parseCardImport(formData: FormData) {
  return parse(formData, {
    resolve: () => {
      const file = formData.get("file");
      return isChosenFile(file) ? { value: { file } } : { error: { file: [CARD_IMPORT_MESSAGES.empty] } };
    },
  });
}

export function ImportCard({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const id = useId();
  const [form, fields] = useForm({
    id: `${id}-import`,
    lastResult,
    onValidate: ({ formData }) => parseCardImport(formData),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const error = fields.file.errors?.[0];
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formData?.get("intent") === "import";
  return (
    <details className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" open={error ? true : undefined}>
      <summary className="cursor-pointer font-semibold text-slate-900">Import a Character Card</summary>
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <input type="hidden" name="intent" value="import" />
        <div className="flex-1">
          <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium text-slate-800">
            Card file (PNG, JSON or CharX, Character Card V2 or V3, up to 8 MB)
          </label>
          <input
            id={`${id}-file`}
            type="file"
            name={fields.file.name}
            accept=".png,.json,.charx,image/png,application/json,application/zip"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-800"
          />
          {error ? (
            <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <Button
          type="submit"
          disabled={importing}
          variant="secondary"
          size="base"
          className="inline-flex items-center justify-center gap-2"
        >
          <UploadIcon />
          {importing ? "Importing..." : "Import"}
        </Button>
      </Form>
    </details>
  );
}
