// The chat front ends a persona's card goes to (docs/cards.md): their ids, as the API names them,
// and their names. Its own module so that a page can name them without the card check's pattern
// engine (card-check.ts) coming along.
export const CARD_TARGETS = ["sillytavern", "risuai", "chub", "janitorai", "backyard", "agnai"] as const;
export type CardTarget = (typeof CARD_TARGETS)[number];

export const CARD_TARGET_LABELS: Record<CardTarget, string> = {
  sillytavern: "SillyTavern",
  risuai: "RisuAI",
  chub: "Chub",
  janitorai: "JanitorAI",
  backyard: "Backyard AI",
  agnai: "Agnai",
};

export const CARD_SEVERITY_LABELS = { error: "Error", warning: "Warning", info: "Note" } as const;

export const CARD_CHECK_TEXT = {
  title: "Card check",
  open: "Check the card",
  intro: "What other chat apps will keep, use or drop of this persona's card, found before you export it.",
  none: "Nothing to fix: other chat apps read this card as it is.",
  importedTitle: "In the file you imported",
  importedIntro: "The file this persona came from had these problems. Its exports from here are written right.",
  survivalTitle: "What survives where",
  survivalIntro:
    "What each chat app does with the fields this card uses: used, kept but not used, changed or dropped. Sources: the apps' own code and documentation.",
  fixDone: "Fix Applied",
  fixFailed: "Fix Not Applied",
  survivalLink: "What each app keeps of the card",
  cardLine: "Check what SillyTavern, RisuAI, Chub, JanitorAI, Backyard AI and Agnai keep of this persona before you export it.",
} as const;

/** The runs of the persona's tests in each front end (docs/cards.md, Behaviour in each front end). */
export const CARD_TARGET_RUN_TEXT = {
  start: "Run the tests in each app",
  started: { title: "Tests Started", description: "The persona's tests are running as each app would see the card." },
  running: "Running the persona's tests as each app would see the card…",
  notFound: "Run not found.",
} as const;

/** The import toast's line about the card check ('' when it found no error or warning). */
export function cardCheckSentence(findings: readonly { severity: "error" | "warning" | "info" }[]): string {
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.filter((finding) => finding.severity === "warning").length;
  if (errors + warnings === 0) return "";
  const parts = [
    errors && `${errors} ${errors === 1 ? "error" : "errors"}`,
    warnings && `${warnings} ${warnings === 1 ? "warning" : "warnings"}`,
  ].filter(Boolean);
  return `The card check found ${parts.join(" and ")}: see Card check on the persona's page.`;
}
