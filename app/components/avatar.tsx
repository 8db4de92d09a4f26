// docs/product.md, Navigation shell: the profile image if there is one, else the uppercase first letter of the
// first name in a circle, else a generic user icon. Its accessible name is the user's
// display name, unless it sits beside text that already says it (decorative).
import { avatarInitial, displayName } from "~/domain/account";

import { UserIcon } from "./ui/icons";

export interface AvatarUser {
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

const sizes = {
  sm: "h-8 w-8 text-sm",
  md: "h-10 w-10 text-base",
  lg: "h-16 w-16 text-2xl",
} as const;

export function Avatar({
  user,
  size = "md",
  decorative = false,
  className = "",
}: {
  user: AvatarUser;
  size?: keyof typeof sizes;
  /** Hide it from assistive technology when a visible or sr-only text next to it names the user. */
  decorative?: boolean;
  className?: string;
}) {
  const name = displayName(user.firstName, user.lastName);
  const box = `${sizes[size]} inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full ${className}`;

  if (user.profileImageUrl) {
    return (
      <img
        src={user.profileImageUrl}
        alt={decorative ? "" : name}
        referrerPolicy="no-referrer"
        className={`${box} bg-slate-200 object-cover`}
      />
    );
  }

  const initial = avatarInitial(user.firstName);
  const a11y = decorative ? { "aria-hidden": true as const } : { role: "img", "aria-label": name };
  return (
    <span {...a11y} className={`${box} bg-brand-100 font-semibold text-brand-800`}>
      {initial ?? <UserIcon />}
    </span>
  );
}
