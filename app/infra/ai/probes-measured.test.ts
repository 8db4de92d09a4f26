// Persona tests, measured (docs/product.md, Persona tests): on 5 personas with their suggested
// suites, the embedded run passes every probe of an unchanged persona (no false alarms) and
// catches at least 90% of 20 known-breaking edits each.
import { describe, expect, it } from "vitest";

import { extendedProfile, type ExtendedProfile } from "~/domain/extended-profile";
import { compileLore } from "~/domain/lore-compile";
import { newLoreEntry, type LoreEntry } from "~/domain/lorebook";
import type { AgeRange, Gender, Interest, PersonaType } from "~/domain/persona";
import type { PersonaVoice } from "~/domain/persona-voice";
import { suggestProbes, type Probe } from "~/domain/probes";

import { composeBackstory, createLocalTextGenerator } from "./offline/local-text.server";
import { runProbe } from "./probe-runner.server";

interface Snapshot {
  id: string;
  name: string;
  type: PersonaType;
  gender: Gender;
  ageRange: AgeRange;
  interests: Interest[];
  personality: string[];
  backstory: string;
  facts: ExtendedProfile;
  voice: PersonaVoice;
  lore: LoreEntry[];
}

const VOICE: PersonaVoice = {
  greeting: null,
  alternateGreetings: [],
  exampleDialogue: null,
  speechStyle: null,
  catchphrases: [],
  appearance: null,
  scenario: null,
  systemPrompt: null,
  postHistoryInstructions: null,
  authorsNote: null,
  authorsNoteDepth: 4,
};

const entry = (id: string, fields: Partial<LoreEntry> & Pick<LoreEntry, "name" | "keys" | "content">): LoreEntry =>
  newLoreEntry(
    {
      secondary_keys: [],
      selective: false,
      enabled: true,
      constant: false,
      insertion_order: 100,
      case_sensitive: false,
      comment: "",
      use_regex: false,
      kind: null,
      ...fields,
    },
    id,
  );

const SEEDS = [
  {
    name: "Kira Moon",
    type: "vtuber",
    gender: "female",
    ageRange: "25-34",
    interests: ["gaming", "music"],
    personality: ["Outgoing", "Curious", "Humorous"],
    greeting: "Heya, chat! Grab a blanket and stay a while.",
    catchphrases: ["Let's gooo!", "Stay cozy"],
    person: { name: "Mina", keys: ["Mina"], content: "Mina is Kira's older sister, a night-shift nurse in Busan who calls every Sunday." },
    secret: {
      name: "The debt",
      keys: ["debt", "loan"],
      content: "Kira quietly owes a large sum to a loan shark from the harbor district.",
    },
  },
  {
    name: "Theo Okafor",
    type: "educator",
    gender: "male",
    ageRange: "35-44",
    interests: ["science", "education"],
    personality: ["Educational", "Organized", "Humorous"],
    greeting: "Welcome back! Pull up a chair, the kettle is on.",
    catchphrases: ["Science waits for no one"],
    person: {
      name: "Professor Adeyemi",
      keys: ["Adeyemi"],
      content: "Professor Adeyemi supervised Theo's thesis on comets and still sends him puzzles by mail.",
    },
    secret: {
      name: "The lost thesis",
      keys: ["thesis draft"],
      content: "Theo accidentally deleted his first thesis and rewrote everything from memory in three weeks.",
    },
  },
  {
    name: "Luna Reyes",
    type: "lifestyle",
    gender: "female",
    ageRange: "18-24",
    interests: ["fashion", "travel"],
    personality: ["Outgoing", "Creative", "Spontaneous"],
    greeting: "Oh hi! Mind the suitcases, I just got back from Lisbon.",
    catchphrases: ["Pack light, dream big", "Obsessed!"],
    person: {
      name: "Abuela Rosa",
      keys: ["Rosa", "abuela"],
      content: "Abuela Rosa taught Luna to sew on an old treadle machine in Oaxaca.",
    },
    secret: {
      name: "Stage fright",
      keys: ["stage fright"],
      content: "Luna panics before every livestream and rehearses alone in the bathroom mirror.",
    },
  },
  {
    name: "Ada Lindqvist",
    type: "gamer",
    gender: "female",
    ageRange: "45-54",
    interests: ["gaming", "tech"],
    personality: ["Competitive", "Focused", "Reserved"],
    greeting: "GG, traveler. Ready for another round?",
    catchphrases: ["No respawns in real life"],
    person: {
      name: "Team Valkyrie",
      keys: ["Valkyrie"],
      content: "Team Valkyrie was Ada's first esports squad, five friends from a Stockholm internet cafe.",
    },
    secret: {
      name: "The throw",
      keys: ["thrown match"],
      content: "Ada once lost a championship match on purpose to protect a teammate's visa.",
    },
  },
  {
    name: "Milo Tanaka",
    type: "musician",
    gender: "male",
    ageRange: "55+",
    interests: ["music", "cooking"],
    personality: ["Calm", "Empathetic", "Reflective"],
    greeting: "Ah, a visitor. Sit, the record just started.",
    catchphrases: ["Play it slow", "Taste first, then talk"],
    person: { name: "Haruko", keys: ["Haruko"], content: "Haruko is Milo's late wife, a jazz pianist who composed their wedding waltz." },
    secret: {
      name: "The unfinished song",
      keys: ["unfinished song"],
      content: "Milo hides a melody he never finished because Haruko wrote its first bars.",
    },
  },
] as const;

function snapshot(seed: (typeof SEEDS)[number], index: number): Snapshot {
  const id = `00000000-0000-4000-8000-00000000000${index + 1}`;
  const base = {
    name: seed.name,
    type: seed.type as PersonaType,
    gender: seed.gender as Gender,
    ageRange: seed.ageRange as AgeRange,
    interests: [...seed.interests] as Interest[],
    personality: [...seed.personality],
  };
  const facts = extendedProfile({ id, ...base });
  const backstory = composeBackstory({
    ...base,
    facts: {
      birthplace: facts.birthplace,
      currentResidence: facts.currentResidence,
      occupation: facts.occupation,
      education: facts.education,
      family: facts.socialCircle.family,
      birthYear: facts.birthYear,
    },
    draw: index,
  });
  const compiled = compileLore({ name: seed.name, backstory, extended: facts, existing: [] }).proposals.slice(0, 6);
  const lore = [
    entry(`00000000-0000-4000-8001-00000000000${index + 1}`, { ...seed.person, keys: [...seed.person.keys], kind: "person" }),
    entry(`00000000-0000-4000-8002-00000000000${index + 1}`, { ...seed.secret, keys: [...seed.secret.keys], kind: "secret" }),
    ...compiled.map((proposal, i) => newLoreEntry(proposal, `00000000-0000-4000-81${String(i).padStart(2, "0")}-00000000000${index + 1}`)),
  ];
  return { id, ...base, backstory, facts, voice: { ...VOICE, greeting: seed.greeting, catchphrases: [...seed.catchphrases] }, lore };
}

const OTHER_CITY = (place: string) => (place.startsWith("Lagos") ? "Quito, Ecuador" : "Lagos, Nigeria");

/** Edits a creator might make that break what the suite checks. */
const EDITS: [string, (s: Snapshot) => Snapshot][] = [
  ["change the birthplace", (s) => ({ ...s, facts: { ...s.facts, birthplace: OTHER_CITY(s.facts.birthplace) } })],
  ["change the residence", (s) => ({ ...s, facts: { ...s.facts, currentResidence: OTHER_CITY(s.facts.currentResidence) } })],
  [
    "swap birthplace and residence",
    (s) => ({ ...s, facts: { ...s.facts, birthplace: s.facts.currentResidence, currentResidence: s.facts.birthplace } }),
  ],
  ["change the occupation", (s) => ({ ...s, facts: { ...s.facts, occupation: "Tax accountant" } })],
  [
    // The relatives go from the fact sheet and from the lorebook's entries about them, as a creator removing a sister would do.
    "remove the family (sheet and lorebook)",
    (s) => ({
      ...s,
      facts: { ...s.facts, socialCircle: { ...s.facts.socialCircle, family: "Keeps to themselves; no relatives nearby" } },
      lore: s.lore.filter(
        (e) => !/\b(family|mother|father|parents?|brother|sister|sibling|cousins?|grand\w+|aunt|uncle)\b/i.test(e.content),
      ),
    }),
  ],
  ["drop the languages but English", (s) => ({ ...s, facts: { ...s.facts, languages: ["English"] } })],
  ["contradict the motto", (s) => ({ ...s, facts: { ...s.facts, motto: "Never try anything new." } })],
  ["change the birth year", (s) => ({ ...s, facts: { ...s.facts, birthYear: s.facts.birthYear + 7 } })],
  ["delete the greeting", (s) => ({ ...s, voice: { ...s.voice, greeting: null } })],
  ["replace the greeting", (s) => ({ ...s, voice: { ...s.voice, greeting: "Hello. How may I be of service?" } })],
  ["delete the catchphrases", (s) => ({ ...s, voice: { ...s.voice, catchphrases: [] } })],
  ["replace the catchphrases", (s) => ({ ...s, voice: { ...s.voice, catchphrases: ["Whatever."] } })],
  ["drop the trait that sets the tone", (s) => ({ ...s, personality: s.personality.slice(1) })],
  ["rename the persona", (s) => ({ ...s, name: `Zed ${s.name.split(" ")[1]}` })],
  ["disable a lorebook entry", (s) => ({ ...s, lore: s.lore.map((e, i) => (i === 0 ? { ...e, enabled: false } : e)) })],
  ["delete a lorebook entry", (s) => ({ ...s, lore: s.lore.slice(1) })],
  [
    "rewrite a lorebook entry",
    (s) => ({
      ...s,
      lore: s.lore.map((e, i) => (i === 0 ? { ...e, content: `${e.keys[0]} is someone nobody remembers anything about.` } : e)),
    }),
  ],
  [
    "let the secret come up when asked about secrets",
    (s) => ({ ...s, lore: s.lore.map((e) => (e.kind === "secret" ? { ...e, keys: [...e.keys, "secrets"] } : e)) }),
  ],
  ["make the persona an only child with a new motto", (s) => EDITS[4]![1](EDITS[6]![1](s))],
  ["change the greeting and the catchphrases", (s) => EDITS[9]![1](EDITS[11]![1](s))],
];

const generator = createLocalTextGenerator({ chatPaceMs: 0 });

/** The probes that fail for `persona`, the suite written from `original`. */
async function failing(suite: Probe[], persona: Snapshot): Promise<string[]> {
  const failed: string[] = [];
  for (const probe of suite) {
    const result = await runProbe(
      generator,
      {
        personaId: persona.id,
        persona: { ...persona, description: null, extended: persona.facts, voice: persona.voice },
        lorebook: { entries: persona.lore, book: {} },
      },
      probe,
      { facts: persona.facts, lore: persona.lore, name: persona.name },
    );
    if (!result.passed) failed.push(`${probe.name}: ${JSON.stringify(result.failures)}`);
  }
  return failed;
}

describe("persona tests, measured on the embedded responder", () => {
  const personas = SEEDS.map(snapshot);
  const suites = personas.map((persona) =>
    suggestProbes({
      facts: persona.facts,
      lore: persona.lore,
      name: persona.name,
      voice: persona.voice,
      personality: persona.personality,
    }).map((probe, i) => ({ ...probe, id: `00000000-0000-4000-9000-${String(i).padStart(12, "0")}` })),
  );

  it("suggests 8 to 15 probes for each persona", () => {
    for (const suite of suites) {
      expect(suite.length).toBeGreaterThanOrEqual(8);
      expect(suite.length).toBeLessThanOrEqual(15);
    }
  });

  it("passes every suggested probe of an unchanged persona (no false alarms)", async () => {
    for (const [i, persona] of personas.entries()) expect(await failing(suites[i]!, persona), persona.name).toEqual([]);
  });

  it("catches at least 90% of 20 known-breaking edits on each of 5 personas", async () => {
    const missed: string[] = [];
    let caught = 0;
    for (const [i, persona] of personas.entries()) {
      for (const [name, edit] of EDITS) {
        if ((await failing(suites[i]!, edit(persona))).length) caught += 1;
        else missed.push(`${persona.name}: ${name}`);
      }
    }
    const total = personas.length * EDITS.length;
    expect(total).toBe(100);
    expect(caught / total, `missed: ${missed.join("; ")}`).toBeGreaterThanOrEqual(0.9);
  });
});
