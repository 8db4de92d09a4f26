// Personas for the long-conversation tests' unit tests and measurements: the persona as a chat reply
// sees it (ChatPersona, lorebook) and as the interrogator knows it (ConversationSubject), with a fact
// sheet, a voice with catchphrases, a person and a secret in its lorebook.
import type { ConversationSubject } from "~/domain/conversation-tests";
import { extendedProfile } from "~/domain/extended-profile";
import { newLoreEntry, type LoreEntry } from "~/domain/lorebook";
import type { AgeRange, Gender, Interest, PersonaType } from "~/domain/persona";
import { EMPTY_VOICE } from "~/domain/persona-voice";
import type { ProbeTarget } from "~/infra/ai/probe-runner.server";

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

/** Kira Moon, a vtuber: facts, a greeting, two catchphrases, her sister Mina and a secret debt. */
export function kira(): { target: ProbeTarget; subject: ConversationSubject } {
  const id = "00000000-0000-4000-8000-00000000c0de";
  const base = {
    name: "Kira Moon",
    type: "vtuber" as PersonaType,
    gender: "female" as Gender,
    ageRange: "25-34" as AgeRange,
    interests: ["gaming", "music"] as Interest[],
    personality: ["Outgoing", "Curious", "Humorous"],
  };
  const facts = extendedProfile({ id, ...base });
  const voice = { ...EMPTY_VOICE, greeting: "Heya, chat! Grab a blanket and stay a while.", catchphrases: ["Let's gooo!", "Stay cozy"] };
  const lore = [
    entry("00000000-0000-4000-8001-00000000c0de", {
      name: "Mina",
      keys: ["Mina"],
      content: "Mina is Kira's older sister, a night-shift nurse in Busan who calls every Sunday.",
      kind: "person",
    }),
    entry("00000000-0000-4000-8002-00000000c0de", {
      name: "The debt",
      keys: ["debt", "loan"],
      content: "Kira quietly owes a large sum to a loan shark from the harbor district.",
      kind: "secret",
    }),
  ];
  const persona = {
    ...base,
    description: "A cozy late-night streamer.",
    backstory: `Kira Moon was born in ${facts.birthplace} and streams from ${facts.currentResidence}.`,
    extended: facts,
    voice,
  };
  return {
    target: { personaId: id, persona, lorebook: { entries: lore, book: {} } },
    subject: { name: base.name, facts, lore, voice, personality: base.personality, probes: [] },
  };
}
