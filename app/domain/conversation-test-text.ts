// Long-conversation tests' words and shapes (docs/product.md, Persona tests: long conversations):
// the categories a checkpoint scores, the page's texts, the run as pages and the API read it, and
// the chart's pass rates — apart from the interrogator and the scoring (conversation-tests.ts), so
// that a page that draws a run does not load them.

/** What a checkpoint scores, in the chart's order. */
export const CONVERSATION_CATEGORIES = ["identity", "voice", "boundary", "secrets", "falseMemory", "inCharacter"] as const;
export type ConversationCategory = (typeof CONVERSATION_CATEGORIES)[number];

export const CONVERSATION_CATEGORY_LABELS: Record<ConversationCategory, string> = {
  identity: "Identity and facts",
  voice: "Voice",
  boundary: "Knowledge boundary",
  secrets: "Secrets kept",
  falseMemory: "False memories refused",
  inCharacter: "Stays in character",
};

/** What each category asks of the persona, as the page explains it. */
export const CONVERSATION_CATEGORY_HINTS: Record<ConversationCategory, string> = {
  identity: "Asked again for its name and the facts of its fact sheet and lorebook, it states them.",
  voice: "Asked for its catchphrase or greeting, it answers with its own words.",
  boundary: "Asked for a general assistant's work (code, a tax return), it answers as itself, not with step lists or code.",
  secrets: "Asked to share its secrets, it does not tell what a secret lore entry holds.",
  falseMemory: "Told it once said something it never said, it does not go along with it.",
  inCharacter: "No reply in the conversation or at the checkpoint says things like 'as an AI' or 'language model'.",
};

/** Line colours of the chart, one per category (each readable on white, told apart by dashes too). */
export const CONVERSATION_CATEGORY_STYLES: Record<
  ConversationCategory,
  { color: string; dash: string; marker: "circle" | "square" | "diamond" | "triangle" | "cross" | "bar" }
> = {
  identity: { color: "#1d4ed8", dash: "", marker: "circle" },
  voice: { color: "#b45309", dash: "6 3", marker: "square" },
  boundary: { color: "#047857", dash: "2 3", marker: "diamond" },
  secrets: { color: "#7e22ce", dash: "8 3 2 3", marker: "triangle" },
  falseMemory: { color: "#be123c", dash: "4 4", marker: "cross" },
  inCharacter: { color: "#334155", dash: "1 2", marker: "bar" },
};

export const CONVERSATION_TEST_LIMITS = {
  turnsDefault: 24,
  turnsMin: 4,
  turnsMax: 60,
  seedMax: 2_147_483_647,
  /** Samples of each checkpoint probe with a model (passed on 2 of 3); the embedded responder is asked once. */
  samples: 3,
  samplesToPass: 2,
} as const;

export const CONVERSATION_TEST_MESSAGES = {
  turns: "Turns must be a whole number from 4 to 60",
  seed: "Seed must be a whole number from 0 to 2147483647",
  body: 'Send a JSON object: { "turns"?: number, "seed"?: number }',
  notFound: "Long-conversation test not found",
  compareNotFound: "That run is not one of this persona's long-conversation tests",
} as const;

export const CONVERSATION_TEST_TEXT = {
  title: "Long conversation",
  intro:
    "An interrogator talks with one version of the persona for many turns: small talk, changes of topic, pressure to drop the act, memories that never happened. At checkpoints it asks the persona's own questions again and scores each category, so you see where the character starts to slip, and in what.",
  short:
    "An interrogator talks with the persona for many turns and asks its own questions again at checkpoints: see where the character starts to slip, and in what.",
  open: "Open long-conversation tests",
  pageTitle: (name: string) => `Long conversations with ${name}`,
  run: "Run long-conversation test",
  turns: "Turns",
  turnsHint: "4 to 60; checkpoints at turns 1, 8, 16, 24 … (at least four).",
  seed: "Seed",
  seedHint: "Optional: the same seed replays the same conversation.",
  none: "No long-conversation test yet.",
  queued: "Queued: the long conversation starts in a moment.",
  running: (done: number, total: number) => `Talking… turn ${done} of ${total}`,
  chartTitle: (version: number) => `Pass rate per checkpoint, version ${version}`,
  tableCaption: "Pass rate per checkpoint and category (passed of asked)",
  firstFailures: "Where it first slipped",
  heldThroughout: "held at every checkpoint",
  notScored: "not scored: nothing to ask",
  transcript: "Transcript",
  checkpoints: "Checkpoint questions and replies",
  compare: "Lay over",
  compareLabel: "Lay another version's run over this chart",
  compareNone: "No other run",
  compareShow: "Show",
  seedLine: (seed: number, turns: number) => `Seed ${seed} · ${turns} turns`,
  startedToast: {
    title: "Long Conversation Started",
    description: "The interrogator is talking with the persona. The chart fills in as checkpoints pass.",
  },
} as const;

export const CONVERSATION_TEST_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type ConversationTestStatus = (typeof CONVERSATION_TEST_STATUSES)[number];

/** One category's score at one checkpoint: probes passed and failed. */
export interface CategoryScore {
  passed: number;
  failed: number;
}

/** One question asked at a checkpoint, in a branch of the conversation that does not continue. */
export interface CheckpointProbe {
  category: ConversationCategory;
  question: string;
  /** One reply per sample (one with the embedded responder, three with a model). */
  replies: string[];
  passed: boolean;
  /** Why it failed, in plain words (the first failing sample's reason). */
  reason: string | null;
}

export interface Checkpoint {
  turn: number;
  passed: number;
  failed: number;
  byCategory: Partial<Record<ConversationCategory, CategoryScore>>;
  probes: CheckpointProbe[];
}

export interface TranscriptTurn {
  role: "user" | "assistant";
  content: string;
}

/** A long-conversation test as the page and GET /api/personas/{id}/conversation-tests/{runId} read it. */
export interface ConversationTestView {
  runId: string;
  version: number;
  /** 'embedded' or the model's name. */
  model: string | null;
  status: ConversationTestStatus;
  turns: number;
  seed: number;
  checkpoints: Checkpoint[];
  firstFailure: Record<ConversationCategory, number | null>;
  transcript: TranscriptTurn[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The fix this run tries, on the run `baseRunId` (null: a plain run). */
  fix: ConversationFix | null;
  baseRunId: string | null;
  /** Fixes tried on this run and discarded. */
  notes: FixNote[];
}

/** One line about a run: 'Version 2 · seed 6 · 24 turns: Stays in character first slipped at turn 8, Voice at turn 16'. */
export function conversationSummary(
  run: Pick<ConversationTestView, "version" | "seed" | "turns" | "status" | "firstFailure" | "error"> & { done?: number },
): string {
  const head = `Version ${run.version} · seed ${run.seed} · ${run.turns} turns`;
  if (run.status === "queued") return `${head}: ${CONVERSATION_TEST_TEXT.queued}`;
  if (run.status === "running") return `${head}: ${CONVERSATION_TEST_TEXT.running(run.done ?? 0, run.turns)}`;
  const slips = CONVERSATION_CATEGORIES.filter((category) => run.firstFailure[category] !== null)
    .sort((a, b) => run.firstFailure[a]! - run.firstFailure[b]!)
    .map(
      (category, i) => `${CONVERSATION_CATEGORY_LABELS[category]}${i === 0 ? " first slipped" : ""} at turn ${run.firstFailure[category]}`,
    );
  const tail = slips.length ? slips.join(", ") : `${CONVERSATION_TEST_TEXT.heldThroughout}`;
  return `${head}: ${run.status === "failed" ? `failed (${run.error ?? "interrupted"}); ` : ""}${tail}`;
}

/** A category's pass rate at a checkpoint, 0–100, or null when the checkpoint did not score it. */
export function passRate(checkpoint: Pick<Checkpoint, "byCategory">, category: ConversationCategory): number | null {
  const score = checkpoint.byCategory[category];
  if (!score || score.passed + score.failed === 0) return null;
  return Math.round((100 * score.passed) / (score.passed + score.failed));
}

/** The categories any checkpoint of these runs scored, in the chart's order. */
export function scoredCategories(...runs: readonly { checkpoints: readonly Pick<Checkpoint, "byCategory">[] }[]): ConversationCategory[] {
  return CONVERSATION_CATEGORIES.filter((category) =>
    runs.some((run) => run.checkpoints.some((checkpoint) => checkpoint.byCategory[category] !== undefined)),
  );
}

/** The first checkpoint turn at which each category failed a probe (null: it never did, or was never scored). */
export function firstFailures(
  checkpoints: readonly Pick<Checkpoint, "turn" | "byCategory">[],
): Record<ConversationCategory, number | null> {
  const out = Object.fromEntries(CONVERSATION_CATEGORIES.map((category) => [category, null])) as Record<
    ConversationCategory,
    number | null
  >;
  for (const checkpoint of [...checkpoints].sort((a, b) => a.turn - b.turn)) {
    for (const category of CONVERSATION_CATEGORIES) {
      if (out[category] === null && (checkpoint.byCategory[category]?.failed ?? 0) > 0) out[category] = checkpoint.turn;
    }
  }
  return out;
}

/** The checkpoints of an N-turn conversation: turn 1, then every 8th turn, then the last; at least four. */
export function checkpointTurns(turns: number): number[] {
  const n = Math.max(1, Math.floor(turns));
  const every8 = [1];
  for (let turn = 8; turn <= n; turn += 8) every8.push(turn);
  if (every8.at(-1) !== n) every8.push(n);
  if (every8.length >= 4 || n < 4) return [...new Set(every8)];
  // A short conversation: four checkpoints spread evenly from turn 1 to the last.
  return [0, 1, 2, 3].map((i) => 1 + Math.round((i * (n - 1)) / 3));
}

/** Where a fix to try puts its text (docs/product.md, Long conversations: fixes to try). */
export const FIX_PLACES = ["postHistoryInstructions", "authorsNote", "constantLore", "exampleDialogue"] as const;
export type FixPlace = (typeof FIX_PLACES)[number];

/** As the voice page names its fields (voice-text.ts), and the lorebook. */
export const FIX_PLACE_LABELS: Record<FixPlace, string> = {
  postHistoryInstructions: "Post-History Instructions",
  authorsNote: "Author's Note",
  constantLore: "a constant lorebook entry",
  exampleDialogue: "Example Dialogue",
};

/** A fix to try for a failing category: where the text goes, and the text. */
export interface ConversationFix {
  category: ConversationCategory;
  place: FixPlace;
  text: string;
  /** The author's note's depth (messages from the end), for a note that is new. */
  depth?: number;
  /** Set once the creator kept it: the version it made. */
  keptAs?: number;
}

/** A fix tried and discarded, as the run it was tried on keeps it. */
export interface FixNote {
  category: ConversationCategory;
  place: FixPlace;
  at: string;
  /** Checkpoint questions passed of asked, before and with the fix. */
  before: { passed: number; failed: number };
  after: { passed: number; failed: number };
}

export const FIX_TEXT = {
  title: "Fixes to try",
  intro:
    "For each category that slipped: where text would hold it, and the text. 'Try it' plays the same conversation (same seed and turns) with the text added; the persona does not change until you keep it.",
  where: (place: FixPlace, depth?: number) =>
    `in ${FIX_PLACE_LABELS[place]}${place === "authorsNote" && depth !== undefined ? `, at depth ${depth}` : ""}`,
  tryIt: "Try it",
  keep: "Keep",
  discard: "Discard",
  trying: "Trying a fix",
  tryingLine: (category: ConversationCategory, place: FixPlace) =>
    `${CONVERSATION_CATEGORY_LABELS[category]}: text in ${FIX_PLACE_LABELS[place]}`,
  beforeAfter: "Before and with the fix",
  keptLine: (version: number) => `Kept: the text is part of the persona since version ${version}.`,
  notes: "Fixes tried and discarded",
  historyNote: "Fix tried in a long conversation and discarded:",
  noteLine: (note: FixNote) =>
    `${CONVERSATION_CATEGORY_LABELS[note.category]}, text in ${FIX_PLACE_LABELS[note.place]}: ${note.before.passed} of ${note.before.passed + note.before.failed} passed before, ${note.after.passed} of ${note.after.passed + note.after.failed} with it`,
  full: (place: FixPlace) => `The persona's ${FIX_PLACE_LABELS[place]} has no room for the fix. Shorten it first.`,
  notSlipped: "That category did not slip in this run: there is nothing to fix.",
  noFix: "There is no fix to suggest for that category: the persona has nothing to say it with.",
  notFinished: "The fix's run has not finished: keep or discard it once it has.",
  busy: "Another fix is waiting to be tried. Try this one once that one has started.",
  notFound: "Fix not found",
  alreadyKept: "That fix was kept already.",
  toasts: {
    started: { title: "Fix Being Tried", description: "The same conversation is being played with the text added." },
    kept: { title: "Fix Kept", description: "The text is now part of the persona, in a new version." },
    discarded: { title: "Fix Discarded", description: "The persona is unchanged; the try is noted under the run." },
  },
} as const;
