// The export toasts (docs/product.md, Exports and character cards). Apart from the formatters (which pull in js-yaml) so the
// browser's Download menu can use them.

/** 'Export Successful' / 'Persona profile exported in {FORMAT} format.' */
export function exportedToast(formatName: string): { title: string; description: string } {
  return { title: "Export Successful", description: `Persona profile exported in ${formatName} format.` };
}

export const EXPORT_FAILED_TOAST = {
  title: "Export Failed",
  description: "Failed to export persona data. Please try again.",
} as const;

export const NO_IMAGE_TOAST = {
  title: "No Image Available",
  description: "This persona doesn't have an image to download.",
} as const;
