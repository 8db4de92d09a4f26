// The product's buttons: two kinds and a few sizes, for a <button> and for a link that looks like
// one (a Link or an <a> takes buttonClass). Layout (a margin, a full width) is the caller's.
import type { ButtonHTMLAttributes } from "react";

export type ButtonVariant = "primary" | "secondary";
/** xs: a row's small action; sm and md: toolbars and forms (small type); base: a page's main action; lg: a form's full-width submit; xl: the landing page's calls to action. */
export type ButtonSize = "xs" | "sm" | "md" | "base" | "lg" | "xl";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-brand-700 font-semibold text-white shadow-sm hover:bg-brand-800",
  secondary: "border border-slate-300 bg-white font-medium text-slate-800 hover:bg-slate-50",
};

const SIZES: Record<ButtonSize, string> = {
  xs: "rounded-md px-2.5 py-1 text-sm",
  sm: "rounded-lg px-3 py-2 text-sm",
  md: "rounded-lg px-4 py-2 text-sm",
  base: "rounded-lg px-4 py-2",
  lg: "rounded-lg px-4 py-2.5",
  xl: "rounded-lg px-6 py-3",
};

/** The classes of a button of this kind and size, then the caller's own (layout). */
export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "base", extra = ""): string {
  return `${SIZES[size]} ${VARIANTS[variant]} text-center disabled:opacity-60${extra ? ` ${extra}` : ""}`;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A <button> of the product's kinds; `type` is "button" unless said (a form's submit says "submit"). */
export function Button({ variant = "primary", size = "base", className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}
