// 'Build lorebook from backstory' (docs/product.md, Lore): proposals for a persona's lorebook —
// an entry for each person, place, group, event and secret its backstory and fact sheet name —
// with a coverage report (what is named, and which entry or proposal covers it) and the entries
// that an edit of the backstory left behind. Pure, deterministic and offline: the embedded path,
// and what a model's proposals are merged with (app/infra/ai/lore.server.ts).
//
// Every proposal is drawn only from what the persona states: the sentences of the backstory
// that name the subject and the sheet's line about it. Nothing is overwritten: a subject an
// existing entry already covers (one of its keys is the subject's name or one of its keys) is
// not proposed again. The reading relies on the sheet's facts and on names, not on the wording
// of any one generator, so it reads a creator's own backstory as well as a generated one.
import { CONTENT_BY_TYPE, EXTRA_LANGUAGES } from "./extended-profile";
import { keyMatcher, literalKeySearch, LORE_LIMITS, loreEntrySchema, type LoreEntry, type LoreEntryInput, type LoreKind } from "./lorebook";

/** The comment every compiled proposal carries: how the stale check knows an entry came from the backstory. */
export const COMPILED_COMMENT = "Built from the backstory";

/** Where each kind goes in a context: people first, then places, groups, events, secrets and things. */
export const COMPILED_ORDER: Record<LoreKind, number> = { person: 100, place: 200, group: 300, event: 400, secret: 500, thing: 600 };

/** The fact sheet's fields a compile reads (the Extended Persona Profile, or the part an import gave). */
export interface LoreFacts {
  birthplace?: string | null;
  currentResidence?: string | null;
  occupation?: string | null;
  education?: string | null;
  socialCircle?: { family?: string | null } | null;
  secretSkills?: readonly string[] | null;
  birthYear?: number | null;
}

export interface LoreCompileInput {
  /** The persona's name: never an entry of its own. */
  name: string;
  backstory: string;
  /** The fact sheet; null when the persona has none. */
  extended: LoreFacts | null;
  /** The lorebook's entries now: what they cover is not proposed again. */
  existing: readonly LoreEntry[];
}

/** A proposed entry: what loreEntrySchema gives for it, with its kind always set. */
export type LoreProposal = LoreEntryInput & { kind: LoreKind };

export interface LoreCoverage {
  /** The named thing, as the backstory or sheet names it. */
  name: string;
  kind: LoreKind;
  /** The existing entry that covers it. */
  entryId: string | null;
  /** Else the proposal that does (an index into `proposals`). */
  proposalIndex: number | null;
}

export interface LoreStale {
  entryId: string;
  reason: string;
}

export interface LoreCompilation {
  proposals: LoreProposal[];
  coverage: LoreCoverage[];
  stale: LoreStale[];
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

const city = (place: string) => place.split(",")[0]!.trim();
const country = (place: string) => place.split(",").slice(1).join(",").trim();

const GENERATOR_PLACES = Object.values(CONTENT_BY_TYPE).flatMap((content) => content.cities);
/** Cities the generators know (the profile's lists): a place wherever the text names one. */
const KNOWN_CITIES = new Set(GENERATOR_PLACES.map(city));
/** Countries of those cities. */
const KNOWN_COUNTRIES = new Set(GENERATOR_PLACES.map(country).filter(Boolean));

const WEEKDAYS_MONTHS =
  /^(Mondays?|Tuesdays?|Wednesdays?|Thursdays?|Fridays?|Saturdays?|Sundays?|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter)$/;
const LANGUAGES = new Set([
  "English",
  ...EXTRA_LANGUAGES,
  ...["American", "British", "European", "Asian", "African", "Latin", "Chinese", "Arabic", "Russian", "Dutch", "Swedish", "Greek"],
  ...["Hindi", "Turkish", "Polish", "Internet", "God", "OK", "TV", "DJ", "PhD", "MBA"],
]);
/** Words that open a sentence or a clause without naming anything. */
const STARTERS = new Set(
  (
    "the a an in on at by for from to of with without when after before during while since until as once then now today " +
    "tonight yesterday tomorrow even still every each most some many few all both this that these those it its she he they " +
    "we you i her his their my our your me him them but and or so yet if though although because here there what who where " +
    "why how which whatever whoever no not never always sometimes often later back next first last soon meanwhile instead " +
    "being having looking somewhere anyone everyone nobody people friends family fans students colleagues regulars other " +
    "others another one two three years life work home mom dad mum grandma grandpa"
  ).split(" "),
);
const ORG_WORDS =
  /^(University|Academy|Studio|Studios|Band|Club|Company|Co\.?|Guild|Team|School|College|Institute|Conservatory|Records|Labs?|Inc\.?|Ltd\.?|Society|Orchestra|Choir|Theatre|Theater|Foundation|Collective|Crew|Agency|Church|Order|Council|Corps|Army|Guard|Federation|League|Association|Group|Ensemble|Troupe|Circus|Hospital|Bank|Press|Magazine|Gazette|Times|Network|Media|Games|Entertainment|Productions|Pictures|Partners|Union|Brotherhood|Sisterhood|Coven|Clan|Tribe|Syndicate|Brigade|Squad|Committee|Ministry|Department|Office|Court|Senate|Monastery|Temple|Circle|Alliance|Empire|Kingdom|Republic)$/;
const PLACE_WORDS =
  /^(Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Boulevard|Park|Lake|River|Mountain|Mountains|Mount|Mt\.?|Valley|Island|Islands|Bay|Beach|Bridge|Square|Market|City|Town|Village|Harbor|Harbour|Port|Forest|Woods|Hills?|Castle|Tower|Station|Hotel|Café|Cafe|Bar|Restaurant|Diner|Pub|Garden|Gardens|Coast|Desert|Sea|Ocean|Falls|Canyon|Peninsula|Province|County|District|Quarter|Heights|Springs|Creek|Farm|Ranch|Manor|Hall|Palace|Plaza|Pier|Museum|Gallery|Library|Arena|Stadium|Airport|Shrine|Cathedral|Abbey|Prison|Camp|Base|Realm|Land|Lands|Isle|Cove|Marsh|Glen|Ridge|Point|Cape)$/;
const PLACE_BEFORE =
  /\b(in|to|from|near|across|around|toward|towards|through|outside|inside|visit|visited|visiting|left|leaving|reached|into|back to|home to|at)\s+(the\s+)?$/i;
const STUDY_BEFORE =
  /\b(degree|degrees|studied|studies|study|studying|major|majored|course|courses|classes|diploma|certificate|lecturer|professor|teacher)\s+(in|of)?\s*$/i;

/** Family and close relations, as a text names them; the word is the key, the modifiers are kept ('older brother'). */
const RELATION =
  /\b(?:(my|her|his|their|our|a|an|the|My|Her|His|Their|Our|A|An|The)\s+)?((?:(?:older|younger|little|big|elder|eldest|oldest|youngest|twin|baby|late|single|adoptive|step|half|only|best|childhood|beloved)[\s-]+)*)(mother|mom|mum|father|dad|parents|brothers?|sisters?|siblings?|grandmother|grandfather|grandma|grandpa|grandparents|aunt|uncle|cousins?|son|daughter|wife|husband|fiancée?|girlfriend|boyfriend|stepmother|stepfather|friend|mentor)\b(?:,?\s+(\p{Lu}[\p{Ll}'-]+(?:\s+\p{Lu}[\p{Ll}'-]+)?))?/gu;
/** 'friend' and 'mentor' are people of the persona's only with a word that makes them one ('best friend', 'her mentor'). */
const NEEDS_MODIFIER = new Set(["friend", "mentor"]);

const SECRET =
  /\b(secrets?|secretly|never told|never tells|no one knows|nobody knows|no one else knows|hides|hid|hidden|hiding|confess(ed|es)?|keeps? (it|this|that) (quiet|to (herself|himself|themselves))|never admit(s|ted)?|does not tell|doesn't tell|never mentions?)\b/i;
const YEAR = /\b(1[5-9]\d\d|20\d\d)\b/;

/** Events a sentence tells without a year, and the keys a conversation would use for each. */
const EVENTS: { pattern: RegExp; name: (m: RegExpExecArray) => string; keys: (m: RegExpExecArray) => string[] }[] = [
  {
    pattern: /\bmoved (?:back )?to (?:the )?(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/u,
    name: (m) => `The move to ${m[1]}`,
    keys: (m) => [`moved to ${m[1]}`, `move to ${m[1]}`],
  },
  { pattern: /\bgraduat(ed|ion|ing)\b/i, name: () => "Graduation", keys: () => ["graduation", "graduated"] },
  {
    pattern:
      /\bw(?:on|ins|inning) (?:a |an |the |her |his |their |first )?(?:[\w-]+ ){0,3}?(award|prize|title|championship|competition|contest|cup|medal|scholarship|tournament|grant)\b/i,
    name: (m) => `The ${m[1]!.toLowerCase()}`,
    keys: (m) => [m[1]!.toLowerCase()],
  },
  { pattern: /\b(wedding|got married|married)\b/i, name: () => "The wedding", keys: () => ["wedding", "married"] },
  { pattern: /\b(breakthrough)\b/i, name: () => "The breakthrough", keys: () => ["breakthrough"] },
  {
    pattern: /\b(bad|hard|hardest|worst|difficult|lost|dark) (year|stretch|season|winter|summer|time)\b/i,
    name: (m) => `The ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`,
    keys: (m) => [`${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`],
  },
  {
    pattern: /\b(accident|illness|injury|fire|flood|earthquake|war|divorce|funeral|crash|storm|diagnosis)\b/i,
    name: (m) => `The ${m[1]!.toLowerCase()}`,
    keys: (m) => [m[1]!.toLowerCase()],
  },
  { pattern: /\bthe day (?:she|he|they|I|\p{Lu}\p{Ll}+) (\w+)/u, name: (m) => `The day it ${m[1]}`, keys: (m) => [`the day`, m[1]!] },
];

/** Characters of a text as the limits count them: code points. */
function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const sameKey = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A text as sentences: paragraphs, then sentence ends followed by a capital, a digit or a quote. */
export function loreSentences(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n+/)
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?…]["'”’)]?)\s+(?=["'“‘(]?[\p{Lu}\d])/u))
    .map(oneLine)
    .filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------------------------

interface Subject {
  name: string;
  kind: LoreKind;
  /** Names that identify the subject: two subjects sharing one are the same. */
  names: string[];
  /** Other words the text uses for it ('hometown', 'her sister'). */
  aliases: string[];
  /** Words whose sentences tell about it (names and the telling aliases). */
  telling: string[];
  /** Backstory sentences about it, by index. */
  sentences: Set<number>;
  /** The sheet's lines about it. */
  facts: string[];
  /** A relation word ('sister') for people known by one. */
  relation: string | null;
}

class Subjects {
  readonly list: Subject[] = [];
  /** Each name (in lower case) and the subjects that have it, in the list's order: looked up, not searched for. */
  private readonly byName = new Map<string, Subject[]>();
  private readonly position = new Map<Subject, number>();

  private index(subject: Subject) {
    for (const name of subject.names) {
      const key = name.toLowerCase();
      const known = this.byName.get(key);
      if (!known) this.byName.set(key, [subject]);
      else if (!known.includes(subject)) known.push(subject);
    }
  }

  /** The first subject in the list of the same kind sharing a name (any case) with this one, else the first sharing one. */
  private matching(names: readonly string[], kind: LoreKind): Subject | undefined {
    let first: Subject | undefined;
    let firstOfKind: Subject | undefined;
    for (const name of names) {
      for (const other of this.byName.get(name.toLowerCase()) ?? []) {
        const at = this.position.get(other)!;
        if (!first || at < this.position.get(first)!) first = other;
        if (other.kind === kind && (!firstOfKind || at < this.position.get(firstOfKind)!)) firstOfKind = other;
      }
    }
    return firstOfKind ?? first;
  }

  add(subject: Omit<Subject, "sentences" | "facts" | "telling"> & { sentences?: number[]; facts?: string[]; telling?: string[] }): Subject {
    const match = this.matching(subject.names, subject.kind);
    const telling = subject.telling ?? subject.names;
    if (match) {
      merge(match.names, subject.names);
      this.index(match);
      merge(match.aliases, subject.aliases);
      merge(match.telling, telling);
      for (const index of subject.sentences ?? []) match.sentences.add(index);
      merge(match.facts, subject.facts ?? []);
      match.relation ??= subject.relation;
      return match;
    }
    const created: Subject = {
      ...subject,
      names: [...subject.names],
      aliases: [...subject.aliases],
      telling: [...telling],
      sentences: new Set(subject.sentences ?? []),
      facts: [...(subject.facts ?? [])],
    };
    this.position.set(created, this.list.length);
    this.list.push(created);
    this.index(created);
    return created;
  }
}

function merge(into: string[], items: readonly string[]) {
  for (const item of items) if (item && !into.some((existing) => sameKey(existing, item))) into.push(item);
}

const singular = (word: string) => (/(ies)$/.test(word) ? word.replace(/ies$/, "y") : /[^s]s$/.test(word) ? word.slice(0, -1) : word);

/** The persona's own name, in every form the text may use it: never a subject. */
function personaNames(name: string): Set<string> {
  const words = oneLine(name).split(" ").filter(Boolean);
  return new Set([oneLine(name), ...words].map((w) => w.toLowerCase()));
}

/** The sheet's facts as subjects: birthplace, residence, family, occupation, education, secret skills, birth year. */
function sheetSubjects(facts: LoreFacts, subjects: Subjects, story: string) {
  const place = (value: string | null | undefined, label: string, hometown: boolean) => {
    const text = oneLine(value ?? "");
    if (!text) return;
    const name = city(text) || text;
    const aliases = [country(text), ...(hometown && /\bhometown\b/i.test(story) ? ["hometown"] : [])].filter(Boolean);
    subjects.add({ name, kind: "place", names: [name], aliases, telling: [name], facts: [`${label}: ${text}.`], relation: null });
  };
  place(facts.birthplace, "Birthplace", true);
  place(facts.currentResidence, "Current residence", false);

  const family = oneLine(facts.socialCircle?.family ?? "");
  if (family) {
    const line = `Family: ${family.replace(/[.!]+$/, "")}.`;
    subjects.add({ name: "Family", kind: "group", names: ["family"], aliases: [], facts: [line], relation: null });
    for (const person of relationsIn(family)) subjects.add({ ...person, facts: [line] });
  }

  const occupation = oneLine(facts.occupation ?? "").replace(/[.!]+$/, "");
  if (occupation && occupation.length <= LORE_LIMITS.keyMax) {
    subjects.add({
      name: capitalize(occupation),
      kind: "thing",
      names: [occupation.toLowerCase()],
      aliases: ["job", "occupation"],
      telling: [occupation.toLowerCase()],
      facts: [`Occupation: ${occupation}.`],
      relation: null,
    });
  }

  const education = oneLine(facts.education ?? "").replace(/[.!]+$/, "");
  if (education) {
    const line = `Education: ${education}.`;
    const institution = namesIn(education).find(
      (n) => ORG_WORDS.test(n.text.split(" ").at(-1)!) || /^(University|College|Academy)\b/.test(n.text),
    );
    if (institution) {
      subjects.add({
        name: institution.text,
        kind: "group",
        names: [institution.text],
        aliases: ["school"],
        facts: [line],
        relation: null,
      });
    } else {
      // Fields of study the sheet names ('Degree in Psychology'): the words a conversation would use.
      const fields = [...education.matchAll(/\b(?:in|of|Studied)\s+(\p{Lu}[\p{L}-]*(?:\s+(?:and\s+)?\p{Lu}[\p{L}-]*)*)/gu)].map(
        (m) => m[1]!,
      );
      subjects.add({
        name: "Education",
        kind: "thing",
        names: ["education"],
        aliases: [...fields, "school", "studies"],
        telling: ["education", ...fields],
        facts: [line],
        relation: null,
      });
    }
  }

  const skills = (facts.secretSkills ?? []).map(oneLine).filter(Boolean);
  if (skills.length > 0) {
    subjects.add({
      name: "Secret skills",
      kind: "secret",
      names: ["secret skills"],
      aliases: ["secret skill", "hidden talent"],
      facts: [`Secret skills: ${skills.map((s) => s.replace(/[.!]+$/, "")).join("; ")}.`],
      relation: null,
    });
  }

  const year = facts.birthYear && facts.birthYear > 0 ? String(facts.birthYear) : "";
  if (year) {
    subjects.add({
      name: `Born in ${year}`,
      kind: "event",
      names: [year],
      aliases: ["born"],
      telling: [year],
      facts: [`Born in ${year}.`],
      relation: null,
    });
  }
}

type PersonSeed = Omit<Subject, "sentences" | "facts" | "telling"> & { telling: string[] };

/** The family members and close people a text names ('her older brother', 'my sister Mina'). */
function relationsIn(text: string): PersonSeed[] {
  const people: PersonSeed[] = [];
  for (const m of text.matchAll(RELATION)) {
    const determiner = (m[1] ?? "").toLowerCase();
    const name = m[4]?.replace(/['’]s$/, "");
    const modifiers = oneLine((m[2] ?? "").replace(/-/g, " ")).toLowerCase();
    const word = m[3]!.toLowerCase();
    const given = name && !WEEKDAYS_MONTHS.test(name) && !KNOWN_CITIES.has(name) && !STARTERS.has(name.toLowerCase()) ? name : null;
    if (NEEDS_MODIFIER.has(word) && !modifiers && !given && !/^(my|her|his|their|our)$/.test(determiner)) continue;
    if (word === "friend" && !modifiers && !given) continue;
    const relation = oneLine(`${modifiers.replace(/\b(single|late|beloved|adoptive)\b/g, "").trim()} ${word}`);
    const phrase = oneLine(`${modifiers} ${word}`);
    const used = /^(my|her|his|their|our)$/.test(determiner) ? `${determiner} ${phrase}` : "";
    const aliases = [phrase, singular(word), word, used].filter(Boolean);
    if (given)
      people.push({
        name: given,
        kind: "person",
        names: [given],
        aliases,
        telling: [given, used].filter(Boolean),
        relation: singular(word),
      });
    else
      people.push({
        name: capitalize(relation),
        kind: "person",
        names: [relation],
        aliases,
        telling: [phrase, used].filter(Boolean),
        relation: singular(word),
      });
  }
  return people;
}

interface NameHit {
  text: string;
  /** What comes before it in the sentence. */
  before: string;
  atStart: boolean;
}

/** Capitalised words and runs of them ('Hanbit Studio', 'Rio de Janeiro'), each with what comes before it. */
function namesIn(sentence: string): NameHit[] {
  const hits: NameHit[] = [];
  const run = /\p{Lu}[\p{L}\p{M}'’.&-]*(?:\s+(?:(?:of|the|de|da|do|del|la|le|van|von|der|di|y|and|&|\d+)\s+)*\p{Lu}[\p{L}\p{M}'’.&-]*)*/gu;
  for (const m of sentence.matchAll(run)) {
    let atStart = /^[\s"'“‘(*]*$/.test(sentence.slice(0, m.index)) || /[:;—–("“]\s*$/.test(sentence.slice(0, m.index));
    let words = m[0]
      .replace(/['’]s$/, "")
      .replace(/[.'’-]+$/, "")
      .split(" ");
    // A sentence's first word is a name only when it is not an ordinary word.
    while (atStart && words.length > 0 && STARTERS.has(words[0]!.toLowerCase())) {
      words = words.slice(1);
      while (words.length > 0 && /^(of|the|de|da|do|del|la|le|van|von|der|di|y|and|&)$/.test(words[0]!)) words = words.slice(1);
      atStart = false;
    }
    const text = words.join(" ");
    if (!text) continue;
    const start = m.index + m[0].indexOf(text);
    hits.push({ text, before: sentence.slice(0, start), atStart });
  }
  return hits;
}

/** Whether a capitalised word is no name: a weekday, a language, a brand-like word ('VTuber', 'Wi-Fi', 'CDs'), a field of study. */
function notAName(text: string, own: Set<string>): boolean {
  if (own.has(text.toLowerCase())) return true;
  const words = text.split(" ");
  if (words.every((w) => own.has(w.toLowerCase()))) return true;
  if (words.length === 1) {
    const w = words[0]!;
    if (WEEKDAYS_MONTHS.test(w) || LANGUAGES.has(w) || STARTERS.has(w.toLowerCase()) || w === "I") return true;
    if (/\d/.test(w) || /^\p{Lu}-|-\p{Lu}/u.test(w) || /^\p{Lu}{2,}s$/u.test(w) || /\p{Ll}\p{Lu}|^\p{Lu}{2}\p{Ll}/u.test(w))
      return !KNOWN_COUNTRIES.has(w);
    if (w.length < 2 || /^I['’]/.test(w)) return true;
  }
  return false;
}

/** What the backstory itself names: places, groups and people by name, relations, events and secrets. */
function storySubjects(sentences: readonly string[], ownName: string, subjects: Subjects) {
  const own = personaNames(ownName);
  // Names seen in the middle of a sentence: the same word opening a sentence is then a name too.
  const midNames = new Set<string>();
  for (const s of sentences) for (const hit of namesIn(s)) if (!hit.atStart) midNames.add(hit.text);

  sentences.forEach((sentence, index) => {
    for (const hit of namesIn(sentence)) {
      const text = hit.text;
      if (notAName(text, own)) continue;
      if (hit.atStart && !midNames.has(text) && !KNOWN_CITIES.has(text) && !KNOWN_COUNTRIES.has(text) && text.split(" ").length < 2)
        continue;
      if (STUDY_BEFORE.test(hit.before)) continue;
      const last = text.split(" ").at(-1)!;
      if (KNOWN_COUNTRIES.has(text)) {
        // A country goes with the sheet's city in it; else it is a place of its own.
        const host = subjects.list.find((s) => s.kind === "place" && s.aliases.some((a) => sameKey(a, text)));
        if (host) host.sentences.add(index);
        else subjects.add({ name: text, kind: "place", names: [text], aliases: [], sentences: [index], relation: null });
        continue;
      }
      const relation =
        /\b(mother|mom|mum|father|dad|brother|sister|sibling|grandmother|grandfather|grandma|grandpa|aunt|uncle|cousin|son|daughter|wife|husband|fiancée?|girlfriend|boyfriend|friend|mentor|teacher|coach|boss|neighbou?r|rival|partner|colleague)s?,?\s*$/i.exec(
          hit.before,
        );
      let kind: LoreKind;
      const placeBefore = PLACE_BEFORE.test(hit.before);
      if (text.split(" ").some((word) => ORG_WORDS.test(word)) && !relation) kind = "group";
      else if (KNOWN_CITIES.has(text)) kind = "place";
      else if (relation) kind = "person";
      // 'Jae Park taught her' is a person; 'a bench in Central Park', 'Mount Hood' are places.
      else if (
        placeBefore ||
        /^(Mount|Lake|Port|Saint|St\.?|Fort|Cape|Isle) /.test(text) ||
        (PLACE_WORDS.test(last) && !/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u.test(text))
      )
        kind = "place";
      else kind = "person";
      const aliases: string[] = [];
      if (kind !== "person" && text.split(" ").length > 1) {
        // 'the Seoul Academy of Arts' is also 'the Academy'; 'Hanbit Studio' also 'Hanbit'.
        const first = text.split(" ")[0]!;
        if (!STARTERS.has(first.toLowerCase()) && !KNOWN_CITIES.has(first) && first.length > 3 && ORG_WORDS.test(last)) aliases.push(first);
      }
      if (kind === "person") {
        const first = text.split(" ")[0]!;
        if (text.includes(" ") && !own.has(first.toLowerCase())) aliases.push(first);
        if (relation) aliases.push(relation[1]!.toLowerCase());
      }
      subjects.add({
        name: text,
        kind,
        names: [text],
        aliases,
        telling: [text],
        sentences: [index],
        relation: relation ? relation[1]!.toLowerCase() : null,
      });
    }

    for (const person of relationsIn(sentence)) subjects.add({ ...person, sentences: [index] });

    if (SECRET.test(sentence) && !/\bsecret skills?\b/i.test(sentence)) {
      const words = sentence
        .split(/\s+/)
        .slice(0, 6)
        .join(" ")
        .replace(/[,.;:!?]+$/, "");
      const found = SECRET.exec(sentence)![1]!.toLowerCase();
      const keys = [found.startsWith("secret") ? "secret" : found];
      subjects.add({
        name: `Secret: ${words}…`,
        kind: "secret",
        names: [`secret:${index}`],
        aliases: [...keys, "secret"],
        telling: [],
        sentences: [index],
        relation: null,
      });
    }

    const year = YEAR.exec(sentence)?.[1];
    const event = EVENTS.map((e) => ({ e, m: e.pattern.exec(sentence) })).find((x) => x.m);
    if (year) {
      const label = event ? event.e.name(event.m!) : `${year}`;
      subjects.add({
        name: event ? `${label} (${year})` : `What happened in ${year}`,
        kind: "event",
        names: [year],
        aliases: event ? event.e.keys(event.m!) : [],
        telling: [year],
        sentences: [index],
        relation: null,
      });
    } else if (event) {
      const keys = event.e.keys(event.m!).filter((k) => k.length >= 3);
      subjects.add({
        name: event.e.name(event.m!),
        kind: "event",
        names: [keys[0]!],
        aliases: keys.slice(1),
        telling: [],
        sentences: [index],
        relation: null,
      });
    }
  });
}

/** An unnamed relation ('Older sister') the text also names ('her sister Mina') is that person. */
function joinRelations(subjects: Subjects): Subject[] {
  const named = subjects.list.filter((s) => s.kind === "person" && s.relation && s.names.some((n) => n !== n.toLowerCase()));
  const out: Subject[] = [];
  for (const subject of subjects.list) {
    const unnamed = subject.kind === "person" && subject.relation && subject.names.every((n) => n === n.toLowerCase());
    if (unnamed) {
      const candidates = named.filter((n) => n.relation === subject.relation);
      if (candidates.length === 1) {
        const host = candidates[0]!;
        merge(host.aliases, [...subject.names, ...subject.aliases]);
        for (const index of subject.sentences) host.sentences.add(index);
        merge(host.facts, subject.facts);
        continue;
      }
    }
    out.push(subject);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The compile
// ---------------------------------------------------------------------------------------------

/** The keys of a subject: its names, then what the text calls it; at most 20, none repeated, each within the limit. */
function keysOf(subject: Subject): string[] {
  const keys: string[] = [];
  const candidates = [...subject.names.filter((n) => !n.startsWith("secret:")), ...subject.aliases];
  for (const key of candidates.map(oneLine)) {
    if (!key || [...key].length > LORE_LIMITS.keyMax || /[,\n]/.test(key)) continue;
    if (!keys.some((k) => sameKey(k, key))) keys.push(key);
  }
  return keys.slice(0, LORE_LIMITS.keysMax);
}

/**
 * The sentences that name each word, found with one search of the whole text per word instead of
 * one test per sentence. Sentences are single lines (loreSentences) joined by line breaks, and a
 * word test matches within a line only (a word with a line break in it names no sentence), so a
 * sentence is found exactly when its own test would find the word.
 */
function sentenceIndex(sentences: readonly string[]): (key: string) => readonly number[] {
  const joined = sentences.join("\n");
  const starts: number[] = [];
  let at = 0;
  for (const sentence of sentences) {
    starts.push(at);
    at += sentence.length + 1;
  }
  const found = new Map<string, number[]>();
  return (key) => {
    const known = found.get(key);
    if (known) return known;
    const indexes: number[] = [];
    if (!key.includes("\n")) {
      const search = literalKeySearch(key, false);
      for (let at = search(joined); at >= 0;) {
        // The last sentence starting at or before the match holds it; the search goes on from the next one.
        let low = 0;
        let high = starts.length - 1;
        while (low < high) {
          const mid = (low + high + 1) >> 1;
          if (starts[mid]! <= at) low = mid;
          else high = mid - 1;
        }
        indexes.push(low);
        at = low + 1 < starts.length ? search(joined, starts[low + 1]!) : -1;
      }
    }
    found.set(key, indexes);
    return indexes;
  };
}

/** What the persona states about a subject: the sheet's lines, then the backstory's sentences, whole, within 2,000 characters. */
function contentOf(subject: Subject, sentences: readonly string[], named: (key: string) => readonly number[]): string {
  const indexes = new Set(subject.sentences);
  for (const key of subject.telling.filter(Boolean)) for (const i of named(key)) indexes.add(i);
  const parts = [...subject.facts, ...[...indexes].sort((a, b) => a - b).map((i) => sentences[i]!)];
  let content = "";
  // Characters (code points) counted as the parts are added, not again for the whole each time.
  let size = 0;
  for (const part of parts) {
    const next = content ? size + 1 + characters(part) : characters(part);
    if (next > LORE_LIMITS.contentMax) {
      if (!content) content = [...part].slice(0, LORE_LIMITS.contentMax - 1).join("") + "…";
      break;
    }
    content = content ? `${content} ${part}` : part;
    size = next;
  }
  return content;
}

// Words shared by many subjects ('secret', 'born', 'job') do not make an entry cover one.
const GENERIC_KEYS = new Set(["secret", "secrets", "born", "job", "occupation", "school", "studies", "family"]);

/**
 * The existing entry that covers a subject: one of its keys is the subject's name or one of its
 * keys (the first such entry in the lorebook). The entries' keys are indexed once per compile:
 * looked up, not compared with every subject's.
 */
function coveringEntries(existing: readonly LoreEntry[]): (subject: Subject, keys: readonly string[]) => LoreEntry | null {
  const byKey = new Map<string, number>();
  existing.forEach((entry, index) => {
    for (const key of entry.keys) if (!byKey.has(key.toLowerCase())) byKey.set(key.toLowerCase(), index);
  });
  return (subject, keys) => {
    const own = (subject.names[0] ?? "").toLowerCase();
    let first = -1;
    for (const wanted of [subject.name, ...keys].map((k) => k.toLowerCase())) {
      const index = byKey.get(wanted);
      if (index === undefined || (GENERIC_KEYS.has(wanted) && wanted !== own)) continue;
      if (first < 0 || index < first) first = index;
    }
    return first < 0 ? null : existing[first]!;
  };
}

const SHEET_LINE = /^(Birthplace|Current residence|Family|Occupation|Education|Secret skills|Born in)\b:?\s*(.*?)\.?$/;

/** Existing compiled entries the backstory (or sheet) no longer supports, with a reason a creator can read. */
function staleEntries(existing: readonly LoreEntry[], backstory: string, sheetText: string, sentences: readonly string[]): LoreStale[] {
  const told = new Set(sentences.map((s) => oneLine(s)));
  const everywhere = `${backstory}\n${sheetText}`;
  const stale: LoreStale[] = [];
  for (const entry of existing) {
    if (!entry.comment.startsWith(COMPILED_COMMENT)) continue;
    const keys = entry.keys.filter((k) => !/^(secret|secrets|born|job|occupation|school|studies|hidden talent|secret skills?)$/i.test(k));
    const primary = keys[0];
    // The first key is the subject's name: when it is gone, so is the subject.
    if (primary && !keyMatcher(primary, { caseSensitive: entry.case_sensitive, useRegex: entry.use_regex })(everywhere)) {
      stale.push({ entryId: entry.id, reason: `"${primary}" is no longer in the backstory` });
      continue;
    }
    const missing = loreSentences(entry.content).find((s) => {
      const sheet = SHEET_LINE.exec(s);
      if (sheet) return !sheetText.includes(sheet[0].replace(/\.$/, ""));
      return !told.has(oneLine(s)) && !s.endsWith("…");
    });
    if (missing) {
      const quoted = [...missing].length > 80 ? `${[...missing].slice(0, 77).join("")}…` : missing;
      stale.push({ entryId: entry.id, reason: `The backstory no longer says "${quoted}"` });
    }
  }
  return stale;
}

/** The sheet's lines as a compile writes them: what a stale check compares entries with. */
function sheetLines(facts: LoreFacts | null): string {
  if (!facts) return "";
  const subjects = new Subjects();
  sheetSubjects(facts, subjects, "");
  return subjects.list.flatMap((s) => s.facts).join("\n");
}

/**
 * Proposals for the persona's lorebook from its backstory and fact sheet, the coverage of what
 * they name, and the existing compiled entries the backstory no longer supports (docs/product.md,
 * Lore). Every proposal passes loreEntrySchema. Deterministic: the same input gives the same answer.
 */
export function compileLore(input: LoreCompileInput): LoreCompilation {
  const backstory = input.backstory ?? "";
  const sentences = loreSentences(backstory);
  const subjects = new Subjects();
  if (input.extended) sheetSubjects(input.extended, subjects, backstory);
  storySubjects(sentences, input.name, subjects);
  const all = joinRelations(subjects);

  const proposals: LoreProposal[] = [];
  const coverage: LoreCoverage[] = [];
  const schema = loreEntrySchema();
  const covering = coveringEntries(input.existing);
  const named = sentenceIndex(sentences);
  const events = { count: 0 };
  const secrets = { count: 0 };
  for (const subject of all) {
    const keys = keysOf(subject);
    if (keys.length === 0) continue;
    const cover = covering(subject, keys);
    if (cover) {
      coverage.push({ name: subject.name, kind: subject.kind, entryId: cover.id, proposalIndex: null });
      continue;
    }
    // A backstory of many years and confidences is told in the first dozen events and five secrets.
    const cap = subject.kind === "event" ? events : subject.kind === "secret" && subject.facts.length === 0 ? secrets : null;
    if (cap && cap.count >= (cap === events ? 12 : 5)) {
      coverage.push({ name: subject.name, kind: subject.kind, entryId: null, proposalIndex: null });
      continue;
    }
    const checked = schema.safeParse({
      name: [...subject.name].slice(0, LORE_LIMITS.nameMax).join(""),
      keys,
      content: contentOf(subject, sentences, named),
      kind: subject.kind,
      insertion_order: COMPILED_ORDER[subject.kind],
      enabled: true,
      constant: false,
      comment: COMPILED_COMMENT,
    });
    if (!checked.success) {
      coverage.push({ name: subject.name, kind: subject.kind, entryId: null, proposalIndex: null });
      continue;
    }
    if (cap) cap.count += 1;
    proposals.push({ ...checked.data, kind: subject.kind });
    coverage.push({ name: subject.name, kind: subject.kind, entryId: null, proposalIndex: proposals.length - 1 });
  }

  return { proposals, coverage, stale: staleEntries(input.existing, backstory, sheetLines(input.extended), sentences) };
}

/** Whether two keys name the same thing, as compile and merge compare them. */
export function sameLoreKey(a: string, b: string): boolean {
  return sameKey(oneLine(a), oneLine(b));
}
