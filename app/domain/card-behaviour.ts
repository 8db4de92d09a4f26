// How a persona behaves in another front end (docs/cards.md, Behaviour in each front end): the
// persona as that front end's prompt would carry it, for the persona tests to run against. A
// documented approximation, not a copy of each app's prompt builder:
//
// - A front end's model sees only the card texts that front end reads (SURVIVAL_TABLE: a field it
//   uses or changes, or one no source documents, which is taken as read). This product's own
//   extension is never read elsewhere, so whatever the persona has that no such text states — a
//   fact of the sheet, a trait, a catchphrase — is unknown there and is taken out.
// - Its lorebook matching follows that front end's rules: Backyard AI loses secondary keys,
//   constant and disabled flags; RisuAI turns disabled entries on and resets use_regex; Agnai
//   uses neither secondary keys nor constant entries; SillyTavern and RisuAI act on `@@` lines,
//   the others send them as text.
// Pure: the tests' runs per front end (services/card-target-runs.server.ts) call it.
import { SURVIVAL_TABLE, type SurvivalField } from "./card-survival";
import { CARD_TARGET_LABELS, type CardTarget } from "./card-targets";
import type { LoreBook, LoreEntry } from "./lorebook";
import { GENDER_LABELS, INTEREST_LABELS } from "./persona-display";
import { PERSONA_TYPE_LABELS } from "./persona";
import type { PersonaVoice } from "./persona-voice";

/** The persona parts a reply is written from (the chat's persona, structurally). */
export interface BehaviourPersona {
  name: string;
  type?: string | null;
  gender?: string | null;
  ageRange?: string | null;
  interests: readonly string[];
  personality: readonly string[];
  description?: string | null;
  backstory?: string | null;
  extended?: Record<string, unknown> | null;
  voice?: Partial<PersonaVoice> | null;
}

/** The card fields whose text can reach a front end's prompt. */
const PROMPT_FIELDS = [
  "description",
  "personality",
  "scenario",
  "first_mes",
  "alternate_greetings",
  "mes_example",
  "system_prompt",
  "post_history_instructions",
] as const satisfies readonly SurvivalField[];

const FACT_LABELS: Record<string, string> = {
  birthplace: "birthplace",
  currentResidence: "home",
  occupation: "occupation",
  education: "education",
  languages: "languages",
  hobbies: "hobbies",
  favoriteFood: "favourite food",
  favoritePlaces: "favourite places",
  motto: "motto",
  dailyRoutine: "daily routine",
  socialCircle: "family and friends",
  goals: "goals",
  challengesOvercome: "challenges overcome",
  influences: "influences",
  secretSkills: "secret skills",
  birthYear: "birth year",
};

/** Whether `target` reads `field` into its prompt: used or changed, or not documented (taken as read). */
export function readsField(target: CardTarget, field: SurvivalField): boolean {
  const cell = (SURVIVAL_TABLE[field] as Record<CardTarget, readonly [string, string] | null>)[target];
  return cell === null || cell[0] === "used" || cell[0] === "changed";
}

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

const textOf = (value: unknown): string =>
  typeof value === "string" ? value : Array.isArray(value) ? value.filter((v) => typeof v === "string").join("\n") : "";

/** Text a front end's model is given of a card, whole, normalised for finding what it states. */
export function promptText(target: CardTarget, data: Record<string, unknown>): string {
  const parts = [textOf(data.name)];
  for (const field of PROMPT_FIELDS) if (readsField(target, field)) parts.push(textOf(data[field]));
  const depth = data.extensions && typeof data.extensions === "object" ? (data.extensions as Record<string, unknown>).depth_prompt : null;
  if (depth && typeof depth === "object" && readsField(target, "extensions.depth_prompt"))
    parts.push(textOf((depth as Record<string, unknown>).prompt));
  return normal(parts.join("\n"));
}

const DECORATOR_LINE = /^\s*@@.*(?:\r?\n|$)/gm;

/** An entry as `target` matches it and sends it (docs/cards.md, What survives where). */
function entryAsSeenBy(target: CardTarget, entry: LoreEntry): LoreEntry {
  const patternKey = (key: string) => /^\/.+\/[a-z]*$/.test(key.trim());
  switch (target) {
    case "backyard":
      // Key and value pairs only: no secondary keys, every entry on, none always on.
      return { ...entry, secondary_keys: [], selective: false, constant: false, enabled: true, use_regex: false };
    case "risuai":
      return {
        ...entry,
        enabled: true,
        use_regex: entry.use_regex && patternKey(entry.keys[0] ?? ""),
        content: entry.content.replace(DECORATOR_LINE, ""),
      };
    case "agnai":
      return { ...entry, secondary_keys: [], selective: false, constant: false, use_regex: false };
    case "sillytavern":
      return { ...entry, content: entry.content.replace(DECORATOR_LINE, "") };
    case "chub":
      return { ...entry, case_sensitive: false };
    case "janitorai":
      return entry;
  }
}

export interface PersonaAsSeen<P extends BehaviourPersona> {
  persona: P;
  lorebook: LoreBook;
  /** What that front end's model does not get, in plain words (empty: nothing). */
  losses: string[];
}

/**
 * The persona as `target`'s prompt carries it, from the card this product exports for it
 * (`data`): what no text it reads states is taken out, and its lorebook follows its rules.
 */
export function personaAsSeenBy<P extends BehaviourPersona>(
  target: CardTarget,
  data: Record<string, unknown>,
  persona: P,
  lorebook: LoreBook,
): PersonaAsSeen<P> {
  const prompt = promptText(target, data);
  const seen = (value: unknown): boolean => {
    if (typeof value !== "string" && typeof value !== "number") return false;
    const text = normal(String(value));
    // A long text counts as stated when its opening is (a card may cut or reflow its end).
    return text !== "" && prompt.includes(text.length > 80 ? text.slice(0, 80) : text);
  };
  const lost: string[] = [];
  const keepText = (value: string | null | undefined, label: string) => {
    if (!value || !value.trim()) return value ?? null;
    if (seen(value)) return value;
    lost.push(label);
    return null;
  };
  const keepList = (values: readonly string[], label: string, show = true) => {
    const kept = values.filter((value) => seen(value));
    const gone = values.filter((value) => !seen(value));
    if (gone.length) lost.push(show ? `${label} (${gone.join(", ")})` : label);
    return kept;
  };

  const typeLabel = persona.type ? (PERSONA_TYPE_LABELS as Record<string, string>)[persona.type] : undefined;
  const genderLabel = persona.gender ? (GENDER_LABELS as Record<string, string>)[persona.gender] : undefined;
  const type = !persona.type || seen(typeLabel ?? persona.type) ? persona.type : (lost.push("type"), null);
  const gender = !persona.gender || seen(genderLabel ?? persona.gender) ? persona.gender : (lost.push("gender"), null);
  const ageRange = !persona.ageRange || seen(persona.ageRange) ? persona.ageRange : (lost.push("age range"), null);
  const interests = persona.interests.filter((interest) => seen((INTEREST_LABELS as Record<string, string>)[interest] ?? interest));
  if (interests.length < persona.interests.length) lost.push("interests");
  const personality = keepList(persona.personality, "traits");
  const description = keepText(persona.description, "description");
  const backstory = keepText(persona.backstory, "backstory");

  let extended: Record<string, unknown> | null = null;
  if (persona.extended) {
    extended = {};
    const facts: string[] = [];
    for (const [key, value] of Object.entries(persona.extended)) {
      if (typeof value === "string" || typeof value === "number") {
        if (value === "" || seen(value)) extended[key] = value;
        else facts.push(FACT_LABELS[key] ?? key);
      } else if (Array.isArray(value)) {
        const kept = value.filter((item) => seen(item));
        extended[key] = kept;
        if (kept.length < value.length) facts.push(FACT_LABELS[key] ?? key);
      } else if (value && typeof value === "object") {
        const parts = Object.entries(value as Record<string, unknown>).filter(([, part]) => part === "" || seen(part));
        extended[key] = Object.fromEntries(parts);
        if (parts.length < Object.keys(value).length) facts.push(FACT_LABELS[key] ?? key);
      } else extended[key] = value;
    }
    if (facts.length) lost.push(`facts of the sheet (${facts.join(", ")})`);
  }

  let voice: Partial<PersonaVoice> | null = null;
  if (persona.voice) {
    const v = persona.voice;
    const greeting = readsField(target, "first_mes") ? (v.greeting ?? null) : (v.greeting && lost.push("greeting"), null);
    const alternates = readsField(target, "alternate_greetings")
      ? [...(v.alternateGreetings ?? [])]
      : (v.alternateGreetings?.length && lost.push("alternate greetings"), []);
    const example = readsField(target, "mes_example")
      ? (v.exampleDialogue ?? null)
      : (v.exampleDialogue && lost.push("example dialogue"), null);
    const scenario = readsField(target, "scenario") ? (v.scenario ?? null) : (v.scenario && lost.push("scenario"), null);
    voice = {
      ...v,
      greeting,
      alternateGreetings: alternates,
      exampleDialogue: example,
      scenario,
      speechStyle: keepText(v.speechStyle, "speech style"),
      catchphrases: keepList(v.catchphrases ?? [], "catchphrases", false),
      appearance: keepText(v.appearance, "appearance"),
    };
  }

  const entries = lorebook.entries.map((entry) => entryAsSeenBy(target, entry));
  const changed = (test: (before: LoreEntry, after: LoreEntry) => boolean) =>
    lorebook.entries.filter((entry, index) => test(entry, entries[index]!)).length;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? `entry ${one}` : `entries ${many}`}`;
  const secondary = changed((a, b) => a.secondary_keys.length > 0 && a.selective && !b.selective);
  const constant = changed((a, b) => a.constant && !b.constant);
  const woken = changed((a, b) => !a.enabled && b.enabled);
  const regex = changed((a, b) => a.use_regex && !b.use_regex);
  const leaking = lorebook.entries.filter(
    (entry, index) => /^\s*@@/m.test(entry.content) && entries[index]!.content === entry.content,
  ).length;
  if (secondary) lost.push(`lorebook: ${count(secondary, "loses its secondary keys", "lose their secondary keys")}`);
  if (constant) lost.push(`lorebook: ${count(constant, "is no longer always on", "are no longer always on")}`);
  if (woken) lost.push(`lorebook: ${count(woken, "switched off here is on", "switched off here are on")}`);
  if (regex) lost.push(`lorebook: ${count(regex, "reads its patterns as plain words", "read their patterns as plain words")}`);
  if (leaking) lost.push(`lorebook: ${count(leaking, "sends its @@ lines as text", "send their @@ lines as text")}`);

  return {
    persona: { ...persona, type, gender, ageRange, interests, personality, description, backstory, extended, voice },
    lorebook: { ...lorebook, entries },
    losses: lost,
  };
}

/** The line a run's result says for one front end ('Backyard AI: 8/12 pass (…)'). */
export function behaviourLine(target: CardTarget, passed: number, total: number): string {
  return `${CARD_TARGET_LABELS[target]}: ${passed}/${total} pass`;
}
