// The words of the checks on real chats (docs/product.md, Chat: checks on your chats): their
// names, the page's and the library badge's texts and the badge's rule, apart from the checks
// themselves (reply-checks.ts), so that a page that shows them does not load the checks.

export const REPLY_CHECKS = ["inCharacter", "secrets", "facts", "catchphrases"] as const;
export type ReplyCheck = (typeof REPLY_CHECKS)[number];

export const REPLY_CHECK_LABELS: Record<ReplyCheck, string> = {
  inCharacter: "Stays in character",
  secrets: "Keeps secrets",
  facts: "Agrees with the fact sheet",
  catchphrases: "Catchphrases now and then",
};

/** One check a reply failed, and what in the reply made it fail. */
export interface ReplyFlag {
  check: ReplyCheck;
  detail: string;
}

/**
 * The library card's badge: the current version's replies are flagged more often than this, over
 * at least this many checked replies.
 */
export const REPLY_FLAG_BADGE = { rate: 0.2, minChecked: 5 } as const;

/** Whether a version's checked replies call for the library's badge. */
export function flaggedOften(checked: number, flagged: number): boolean {
  return checked >= REPLY_FLAG_BADGE.minChecked && flagged / checked > REPLY_FLAG_BADGE.rate;
}

export const REPLY_CHECK_TEXT = {
  title: "Checks on your chats",
  intro:
    "Every reply in your conversations with this persona is checked after it is written: does it stay in character, keep its secrets, agree with the fact sheet, and use catchphrases now and then?",
  empty: "No replies checked yet: chat with the persona and its replies are checked here.",
  version: "Version",
  checked: "Replies checked",
  flagged: "Replies flagged",
  flaggedTitle: "Flagged replies",
  current: "current",
  openChat: "Open the Chat",
  badge: "Slips in chat",
  badgeTitle: (percent: number) => `${percent}% of this version's replies in chat were flagged by the checks`,
} as const;
