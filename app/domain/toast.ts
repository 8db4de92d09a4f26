// Toasts (docs/product.md, Toasts): one visible at a time, 5000 ms, swipe right past 50 px, F8 to the region.
// Pure and dependency-free: the toaster ships on every page, so nothing heavy may ride along.
export type ToastType = "success" | "error" | "info";

export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  description?: string;
}

export type ToastInput = Omit<Toast, "id" | "type"> & Partial<Pick<Toast, "id" | "type">>;

export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = "F8";

export function toToast(input: ToastInput): Toast {
  return {
    id: input.id ?? Math.random().toString(36).slice(2),
    type: input.type ?? "info",
    title: input.title,
    ...(input.description ? { description: input.description } : {}),
  };
}
