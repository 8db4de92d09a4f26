// 'Regenerate' for a section of the Extended Persona Profile, or the whole of it (docs/product.md,
// Extended Persona Profile). A plain form post: a part the creator edited is answered with a
// confirmation step (no JavaScript), or asked about first in a dialog (JavaScript).
import { Form } from "@remix-run/react";
import { useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import { PROFILE_TEXT } from "~/domain/profile-edit";

import { ConfirmDialog } from "./ui/modal";

export function RegenerateProfileButton({
  personaId,
  section,
  title,
  edited,
  label,
  className,
}: {
  personaId: string;
  /** A section's key, or 'all'. */
  section: string;
  /** The section's title (for 'all', the profile's). */
  title: string;
  /** Whether the creator edited what this replaces. */
  edited: boolean;
  /** What the button says; its accessible name adds the section. */
  label: string;
  className: string;
}) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const action = `/persona/${personaId}/profile`;
  const fields = (
    <>
      <input type="hidden" name="intent" value="regenerate" />
      <input type="hidden" name="section" value={section} />
    </>
  );
  const accessibleName = section === "all" ? label : `${label} ${title}`;
  if (hydrated && edited) {
    return (
      <>
        <button type="button" className={className} aria-label={accessibleName} onClick={() => dialog.current?.showModal()}>
          {label}
        </button>
        <ConfirmDialog
          dialogRef={dialog}
          action={action}
          title={section === "all" ? PROFILE_TEXT.confirmAllTitle : PROFILE_TEXT.confirmTitle(title)}
          text={PROFILE_TEXT.confirmText}
          cancelLabel={PROFILE_TEXT.keep}
          confirmLabel={PROFILE_TEXT.confirm}
          tone="primary"
          preventScrollReset
        >
          {fields}
          <input type="hidden" name="confirm" value="yes" />
        </ConfirmDialog>
      </>
    );
  }
  return (
    <Form method="post" action={action} preventScrollReset className="inline">
      {fields}
      <button type="submit" className={className} aria-label={accessibleName}>
        {label}
      </button>
    </Form>
  );
}
