// Seeds the persona library for the /my-personas scaling rows and the /persona/{id} page of
// tests/bench/bench.mjs:
//
//   DATA_DIR=<dir> node_modules/.bin/tsx tests/bench/seed-library.ts --out <file.json> \
//     [--creator small:10:free --creator large:2000:active]      (password: env BENCH_SEED_PASSWORD)
//     [--history history:500:20000]   (creator key : versions : backstory characters)
//
// Runs BEFORE the bench starts the server on the same DATA_DIR (PGlite allows one process at a
// time), or on the bench's throwaway database when DATABASE_URL names a PostgreSQL server: opens
// and migrates the database exactly as the app does (database() in
// app/infra/db/db.server.ts), creates one creator per --creator key:count:plan through the embedded
// auth adapter (sign-up, then e-mail verification with the token it returned, so the creator can
// sign in with the password through POST /api/auth/login), sets the plan through
// withServiceRole as a payment webhook would (only 'active' lifts the Free plan's 10-persona
// limit, which the database enforces), and inserts `count` personas as that creator through
// withUser, in batches, so the row-level security policies and the limit trigger apply. Every
// persona is checked with validatePersona() ('Create Persona' rules) and carries an embedded
// backstory; ~5 % are archived and ~5 % drafts, and they are spread over time (newest first is
// a real ordering). A few names contain SEARCH_TERM so a search matches a handful. Closes the
// database at the end, which releases the DATA_DIR lock. Writes JSON to --out: per creator the
// e-mail, id, plan, persona count, how many the default list ('All' = not archived) and the
// search should show, activePersonaId (the newest of its active personas with a backstory, read
// back as the creator: the bench's persona page) and the timings. With --history, that persona
// of the named creator is then written to until it has that many versions with a backstory of
// that many characters (docs/product.md, History), and the creator's entry gets `history`:
// the persona, its versions and what persona_versions takes on disk.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";

import { and, count, desc, eq, isNotNull, max, ne, sql } from "drizzle-orm";

import { AGE_RANGES, GENDERS, INTERESTS, PERSONA_LIMITS, PERSONA_TYPES, TRAITS } from "~/domain/persona";
import { mulberry32, pickMany } from "~/domain/random";
import { validatePersona } from "~/domain/persona-form";
import { parseExtendedProfile } from "~/domain/character-card";
import { compileLore } from "~/domain/lore-compile";
import { loreEntrySchema, newLoreEntry } from "~/domain/lorebook";
import { createLocalTextGenerator } from "~/infra/ai/offline/local-text.server";
import { createLocalAuth } from "~/infra/auth/local.server";
import { personas, personaVersions, profiles, type NewPersona } from "~/infra/db/schema.server";
import { closeDatabase, database, withServiceRole, withUser } from "~/infra/db/db.server";

export const SEARCH_TERM = "zephyr";
/** One persona in SEARCH_EVERY has SEARCH_TERM in its name (2,000 personas: 5 matches, one of them archived). */
const SEARCH_EVERY = 400;
const BATCH = 250;

const FIRST_NAMES = [
  "Nova",
  "Kai",
  "Luna",
  "Marcus",
  "Aiko",
  "Zoë",
  "Theo",
  "Priya",
  "Mateo",
  "Ingrid",
  "Oluwaseun",
  "Sasha",
  "Ezra",
  "Mei",
  "Rafael",
  "Freya",
  "Jun",
  "Amara",
  "Felix",
  "Søren",
];
const LAST_NAMES = ["Vance", "Okafor", "Nakamura", "Delgado", "Lindqvist", "Haddad", "O'Brien", "Kowalski", "Moreau", "Achebe"];
const DESCRIPTIONS = [
  "A cozy late-night streamer who reviews indie games and answers every chat message.",
  "Explains the science behind everyday cooking in five-minute videos.",
  "Street-style photographer turned virtual fashion critic.",
  "Helps small business owners plan their first year without burning out.",
  '"Your calm voice in a loud internet."',
  "Trains for marathons and posts honest recovery logs, including the bad days.",
  "Composer of lo-fi beats for studying, with a soft spot for jazz history.",
  "A travel guide for people who prefer trains, markets and long walks over landmarks.",
];

interface CreatorSpec {
  key: string;
  count: number;
  plan: "free" | "active";
}

function argValues(flag: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === flag && i + 1 < process.argv.length) out.push(process.argv[i + 1]);
  });
  return out;
}

function parseCreator(spec: string): CreatorSpec {
  const m = /^([a-z0-9-]+):(\d+):(free|active)$/.exec(spec);
  if (!m) throw new Error(`--creator ${spec}: expected key:count:free|active`);
  return { key: m[1], count: Number(m[2]), plan: m[3] as CreatorSpec["plan"] };
}

type Status = "active" | "in_progress" | "archived";

/** Persona i of `count`: valid for 'Create Persona', newest first = i ascending (one every 37 minutes). */
async function personaValues(
  i: number,
  userId: string,
  random: () => number,
  generator: ReturnType<typeof createLocalTextGenerator>,
  now: number,
): Promise<{ values: NewPersona; status: Status; matchesSearch: boolean }> {
  const matchesSearch = i % SEARCH_EVERY === 7;
  const name = matchesSearch
    ? `${FIRST_NAMES[i % FIRST_NAMES.length]} Zephyrine`
    : `${FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]} ${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]}`;
  const input = {
    name,
    type: PERSONA_TYPES[i % PERSONA_TYPES.length],
    gender: GENDERS[Math.floor(i / PERSONA_TYPES.length) % GENDERS.length],
    ageRange: AGE_RANGES[(i + Math.floor(i / PERSONA_TYPES.length)) % AGE_RANGES.length],
    interests: pickMany(INTERESTS, PERSONA_LIMITS.interestsMin + (i % PERSONA_LIMITS.interestsMax), random),
    personality: pickMany(TRAITS, 1 + (i % PERSONA_LIMITS.traitsMax), random),
    description: DESCRIPTIONS[i % DESCRIPTIONS.length],
  };
  const checked = validatePersona(input, "create");
  if (!checked.success) throw new Error(`persona ${i} is not valid: ${JSON.stringify(checked.errors)}`);
  // ~5 % archived (restorable to active), ~5 % drafts; the rest active. Search hits: one archived.
  const status: Status = i % 20 === 13 || i === SEARCH_EVERY * 2 + 7 ? "archived" : i % 20 === 17 ? "in_progress" : "active";
  const backstory = await generator.generateBackstory(input);
  const createdAt = new Date(now - i * 37 * 60_000);
  return {
    values: {
      userId,
      name: input.name,
      type: input.type,
      gender: input.gender,
      ageRange: input.ageRange,
      interests: input.interests,
      description: input.description,
      personality: input.personality,
      backstory,
      status,
      statusBeforeArchive: status === "archived" ? "active" : null,
      createdAt,
      updatedAt: createdAt,
    },
    status,
    matchesSearch,
  };
}

interface HistorySpec {
  key: string;
  versions: number;
  chars: number;
}

function parseHistory(spec: string): HistorySpec {
  const m = /^([a-z0-9-]+):(\d+):(\d+)$/.exec(spec);
  if (!m) throw new Error(`--history ${spec}: expected creatorKey:versions:backstoryChars`);
  return { key: m[1], versions: Number(m[2]), chars: Number(m[3]) };
}

/** A backstory of exactly `chars` characters: numbered sentences, so one can be rewritten alone. */
function longBackstory(base: string, chars: number, rewrites: Map<number, number>): string {
  const sentences: string[] = [];
  let length = 0;
  for (let k = 0; length < chars; k++) {
    const variant = rewrites.get(k) ?? 0;
    const sentence = `${variant ? `In draft ${variant}, ` : ""}${base.split(/(?<=[.!?])\s+/)[k % 8] ?? "She kept going."} (${k})`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(" ").slice(0, chars);
}

/**
 * Persona history (docs/product.md, History): the creator's activePersonaId gets `versions` versions in all, one
 * write each through withUser (the trigger records each): the first sets a backstory of `chars`
 * characters; then every 10th write rewrites one sentence of it, every 3rd toggles a trait and
 * the rest change the description. Returns the persona and what its history takes on disk.
 */
async function seedHistory(
  userId: string,
  email: string,
  personaId: string,
  spec: HistorySpec,
  generator: ReturnType<typeof createLocalTextGenerator>,
) {
  const t0 = performance.now();
  const [persona] = await withUser(userId, (tx) => tx.select().from(personas).where(eq(personas.id, personaId)));
  if (!persona) throw new Error(`history: persona ${personaId} not found`);
  const base = await generator.generateBackstory({
    name: persona.name,
    type: persona.type ?? "content",
    gender: persona.gender ?? "female",
    ageRange: persona.ageRange,
    interests: persona.interests,
    personality: persona.personality,
    description: persona.description,
  } as Parameters<typeof generator.generateBackstory>[0]);
  const rewrites = new Map<number, number>();
  const current = async () =>
    (
      await withUser(userId, (tx) =>
        tx
          .select({ n: max(personaVersions.version) })
          .from(personaVersions)
          .where(eq(personaVersions.personaId, personaId)),
      )
    )[0]?.n ?? 0;
  let version = await current();
  let traits = [...persona.personality];
  for (let i = 0; version < spec.versions; i++) {
    let change: Partial<NewPersona>;
    if (i === 0 || i % 10 === 0) {
      if (i > 0) rewrites.set((i * 7) % 60, i);
      change = { backstory: longBackstory(base, spec.chars, rewrites) };
    } else if (i % 3 === 0) {
      const trait = TRAITS[i % TRAITS.length]!;
      traits = traits.includes(trait) ? traits.filter((t) => t !== trait) : [...traits, trait].slice(-PERSONA_LIMITS.traitsMax);
      change = { personality: traits };
    } else {
      change = { description: `${DESCRIPTIONS[i % DESCRIPTIONS.length]!.slice(0, 120)} (take ${i})` };
    }
    await withUser(userId, (tx) => tx.update(personas).set(change).where(eq(personas.id, personaId)), { email });
    version++;
  }
  if ((await current()) !== spec.versions) throw new Error(`history: ${await current()} versions after seeding, expected ${spec.versions}`);
  // What the history takes: the table with its TOAST and indexes, per version; and how many
  // backstories it holds (the others point at one of those).
  const [storage] = await withServiceRole("bench seed: history storage", (tx) =>
    tx
      .select({
        tableBytes: sql<number>`pg_total_relation_size('public.persona_versions')`.mapWith(Number),
        versionsInTable: count(),
        backstoriesStored: sql<number>`count(${personaVersions.backstory})`.mapWith(Number),
        backstoryBytesStored: sql<number>`coalesce(sum(pg_column_size(${personaVersions.backstory})), 0)`.mapWith(Number),
      })
      .from(personaVersions),
  );
  // This persona's own versions: their rows as stored (a backstory compressed, in TOAST or
  // inline, or absent where it did not change), whatever else the table holds.
  const [own] = await withServiceRole("bench seed: this persona's history storage", (tx) =>
    tx
      .select({
        personaVersions: count(),
        personaRowBytes: sql<number>`coalesce(sum(pg_column_size(${personaVersions}.*)), 0)`.mapWith(Number),
      })
      .from(personaVersions)
      .where(eq(personaVersions.personaId, personaId)),
  );
  return {
    personaId,
    versions: spec.versions,
    backstoryChars: spec.chars,
    storage: {
      ...storage!,
      ...own!,
      bytesPerVersion: Math.round(own!.personaRowBytes / Math.max(1, own!.personaVersions)),
      tableBytesPerVersion: Math.round(storage!.tableBytes / Math.max(1, storage!.versionsInTable)),
    },
    seedMs: performance.now() - t0,
  };
}

async function main(): Promise<void> {
  const out = argValues("--out")[0];
  if (!out) throw new Error("--out <file> is required");
  if (!process.env.DATA_DIR) throw new Error("DATA_DIR must name the bench server's data directory");
  if (process.env.SUPABASE_URL)
    throw new Error("seeds through the embedded sign-up: unset SUPABASE_URL (DATABASE_URL may name a PostgreSQL server)");
  const password = process.env.BENCH_SEED_PASSWORD || "Bench!pass1";
  const specs = (argValues("--creator").length ? argValues("--creator") : ["small:10:free", "large:2000:active"]).map(parseCreator);

  const t0 = performance.now();
  await database(); // opens DATA_DIR/pgdata (taking its lock) and applies the migrations
  const migrateMs = performance.now() - t0;
  const adapter = createLocalAuth();
  const authCtx = { request: new Request("http://127.0.0.1/bench-seed"), responseHeaders: new Headers() };
  const generator = createLocalTextGenerator();
  const creators: Record<string, unknown> = {};
  try {
    for (const spec of specs) {
      const t1 = performance.now();
      const email = `bench-library-${spec.key}-${spec.count}@example.com`;
      const signUp = await adapter.signUp(authCtx, { firstName: "Library", lastName: `Bench ${spec.count}`, email, password });
      if (signUp.status !== "created" || !signUp.userId || !signUp.verificationToken) {
        throw new Error(`sign-up of ${email}: ${signUp.status}`);
      }
      await adapter.verifyEmail(authCtx, signUp.verificationToken);
      const userId = signUp.userId;
      if (spec.plan !== "free") {
        await withServiceRole("bench seed: premium creator", (tx) =>
          tx.update(profiles).set({ subscriptionStatus: spec.plan }).where(eq(profiles.id, userId)),
        );
      }
      const random = mulberry32(0x11b + spec.count);
      const now = Date.now();
      let notArchived = 0;
      let searchHits = 0;
      let searchHitsNotArchived = 0;
      for (let start = 0; start < spec.count; start += BATCH) {
        const batch: NewPersona[] = [];
        for (let i = start; i < Math.min(spec.count, start + BATCH); i++) {
          const p = await personaValues(i, userId, random, generator, now);
          batch.push(p.values);
          if (p.status !== "archived") notArchived++;
          if (p.matchesSearch) {
            searchHits++;
            if (p.status !== "archived") searchHitsNotArchived++;
          }
        }
        await withUser(userId, (tx) => tx.insert(personas).values(batch), { email });
      }
      // Read back as the creator (through the policies), as the library will.
      const [{ owned }] = await withUser(userId, (tx) => tx.select({ owned: count() }).from(personas));
      if (owned !== spec.count) throw new Error(`${email}: ${owned} personas after seeding, expected ${spec.count}`);
      // A full persona page (profile, backstory, extended profile): the newest active one with a backstory.
      const [active] = await withUser(userId, (tx) =>
        tx
          .select({ id: personas.id })
          .from(personas)
          .where(and(eq(personas.status, "active"), isNotNull(personas.backstory), ne(personas.backstory, "")))
          .orderBy(desc(personas.createdAt))
          .limit(1),
      );
      if (spec.count > 0 && !active) throw new Error(`${email}: no active persona with a backstory after seeding`);
      // The small creator's persona has the lorebook its backstory builds (the lore page's rows).
      const loreEntries = spec.key === "small" && active ? await seedLore(userId, email, active.id) : 0;
      creators[spec.key] = {
        email,
        userId,
        plan: spec.plan,
        personas: spec.count,
        notArchived,
        search: { q: SEARCH_TERM, matches: searchHits, matchesNotArchived: searchHitsNotArchived },
        activePersonaId: active?.id ?? null,
        loreEntries,
        seedMs: performance.now() - t1,
      };
    }
    for (const spec of argValues("--history").map(parseHistory)) {
      const creator = creators[spec.key] as { userId: string; email: string; activePersonaId: string | null } | undefined;
      if (!creator?.activePersonaId) throw new Error(`--history ${spec.key}: no such creator with an active persona`);
      (creator as Record<string, unknown>).history = await seedHistory(
        creator.userId,
        creator.email,
        creator.activePersonaId,
        spec,
        generator,
      );
    }
  } finally {
    await closeDatabase(); // releases the DATA_DIR lock for the server
  }
  fs.writeFileSync(out, JSON.stringify({ migrateMs, totalMs: performance.now() - t0, creators }));
}

/** The persona's lorebook as 'Build lorebook from backstory' proposes it, every proposal kept. */
async function seedLore(userId: string, email: string, personaId: string): Promise<number> {
  const [row] = await withUser(userId, (tx) => tx.select().from(personas).where(eq(personas.id, personaId)), { email });
  const compiled = compileLore({
    name: row!.name,
    backstory: row!.backstory ?? "",
    extended: parseExtendedProfile(row!.extended),
    existing: [],
  });
  const entries = compiled.proposals.map((proposal) => newLoreEntry(loreEntrySchema().parse(proposal), randomUUID()));
  await withUser(
    userId,
    (tx) =>
      tx
        .update(personas)
        .set({ lore: { entries, book: {} } })
        .where(eq(personas.id, personaId)),
    { email },
  );
  return entries.length;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
