// The one source of the app schema. `npm run db:generate` (drizzle-kit) writes the
// SQL in supabase/migrations from this file; functions, triggers and grants that
// drizzle-kit does not model live in the hand-written (custom) migrations there.
import { sql, type SQL } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgPolicy,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { authenticatedRole, authUid, authUsers } from "drizzle-orm/supabase";

import { SUBSCRIPTION_STATUSES, NAME_MAX } from "../../domain/account";
import {
  AGE_RANGES,
  CHAT_ROLES,
  GENDERS,
  GENERATION_KINDS,
  IMAGE_STYLES,
  INTERESTS,
  ONE_CHARACTER_NAME_SQL,
  PERSONA_LIMITS,
  PERSONA_STATUSES,
  PERSONA_TYPES,
  TRAITS,
} from "../../domain/persona";
import { CHAT_ALTERNATIVES_MAX, type StoredAlternative } from "../../domain/chat";
import type { ReplyFlag } from "../../domain/reply-check-text";
import { VERSION_KINDS } from "../../domain/persona-history";

const textList = (values: readonly string[]): SQL =>
  sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ")}]::text[]`);
const oneOf = (column: SQL, values: readonly string[]): SQL => sql`${column} = any (${textList(values)})`;

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    authMethod: text("auth_method").notNull().default("email"),
    subscriptionStatus: text("subscription_status").notNull().default("free"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // The current billing period's end (renewal, or the end after a cancellation), from Stripe.
    subscriptionExpiresAt: timestamp("subscription_expires_at", { withTimezone: true }),
    // The end of a Stripe trial ('trialing' counts as Premium until then): trialDaysLeft counts down to it.
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    // Cancelled in the portal but paid up to subscription_expires_at: the page says 'Ends on', not 'Renews on'.
    subscriptionCancelAtPeriodEnd: boolean("subscription_cancel_at_period_end").notNull().default(false),
    personasCreated: integer("personas_created").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Webhooks find the creator by their Stripe customer; one customer belongs to one creator.
    uniqueIndex("profiles_stripe_customer_id_key").on(t.stripeCustomerId),
    check("profiles_first_name_length", sql`char_length(${t.firstName}) <= ${sql.raw(String(NAME_MAX))}`),
    check("profiles_last_name_length", sql`char_length(${t.lastName}) <= ${sql.raw(String(NAME_MAX))}`),
    // Rendered as an <img src>: only web addresses or our own paths, never javascript: or data:.
    check(
      "profiles_profile_image_url_safe",
      sql`${t.profileImageUrl} ~ '^(https?://|/[^/])' and char_length(${t.profileImageUrl}) <= 2048`,
    ),
    check("profiles_subscription_status_valid", oneOf(sql`${t.subscriptionStatus}`, SUBSCRIPTION_STATUSES)),
    check("profiles_personas_created_non_negative", sql`${t.personasCreated} >= 0`),
    pgPolicy("profiles_select_own", { for: "select", to: authenticatedRole, using: sql`${t.id} = ${authUid}` }),
    pgPolicy("profiles_insert_own", { for: "insert", to: authenticatedRole, withCheck: sql`${t.id} = ${authUid}` }),
    pgPolicy("profiles_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.id} = ${authUid}`,
      withCheck: sql`${t.id} = ${authUid}`,
    }),
    pgPolicy("profiles_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.id} = ${authUid}` }),
  ],
).enableRLS();

export const personas = pgTable(
  "personas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Nullable only while the persona is a draft (status in_progress): see personas_complete_unless_draft.
    type: text("type"),
    gender: text("gender"),
    ageRange: text("age_range"),
    interests: text("interests")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    description: text("description"),
    personality: text("personality")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    backstory: text("backstory"),
    narrative: text("narrative"),
    imageUrl: text("image_url"),
    secondaryImageUrl: text("secondary_image_url"),
    imageStyle: text("image_style").notNull().default("photorealistic"),
    status: text("status").notNull().default("in_progress"),
    // What an archived persona was before (active or in_progress), so Restore can bring it back.
    statusBeforeArchive: text("status_before_archive"),
    // The Extended Persona Profile kept from an imported character card; null: derived from the persona.
    extended: jsonb("extended").$type<Record<string, unknown>>(),
    // What an imported character card carried that the persona does not model (greetings,
    // tags, other front ends' extensions…), written back on export.
    cardMeta: jsonb("card_meta").$type<Record<string, unknown>>(),
    // The persona's voice (docs/product.md, Voice): app/domain/persona-voice.ts's PersonaVoice; {} when none is set.
    voice: jsonb("voice")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    // The persona's lorebook (docs/product.md, Lore): app/domain/lorebook.ts's LoreBook; {} when there is none.
    lore: jsonb("lore")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("personas_user_id_idx").on(t.userId),
    index("personas_user_id_name_idx").on(t.userId, sql`lower(${t.name})`),
    index("personas_status_idx").on(t.status),
    index("personas_type_idx").on(t.type),
    index("personas_created_at_idx").on(t.createdAt),
    index("personas_user_id_created_at_idx").on(t.userId, t.createdAt.desc()),
    check(
      "personas_name_length",
      // Migration 20261202180000_one_character_names: one character of a script that writes names in one.
      sql`(char_length(btrim(${t.name})) >= ${sql.raw(String(PERSONA_LIMITS.nameMin))} or btrim(${t.name}) ~ ${sql.raw(`'${ONE_CHARACTER_NAME_SQL}'`)}) and char_length(${t.name}) <= ${sql.raw(String(PERSONA_LIMITS.nameMax))}`,
    ),
    check("personas_type_valid", oneOf(sql`${t.type}`, PERSONA_TYPES)),
    check("personas_gender_valid", oneOf(sql`${t.gender}`, GENDERS)),
    check("personas_age_range_valid", oneOf(sql`${t.ageRange}`, AGE_RANGES)),
    check(
      "personas_interests_valid",
      sql`${t.interests} <@ ${textList(INTERESTS)} and cardinality(${t.interests}) <= ${sql.raw(String(PERSONA_LIMITS.interestsMax))} and public.array_is_distinct(${t.interests})`,
    ),
    check(
      "personas_personality_valid",
      sql`${t.personality} <@ ${textList(TRAITS)} and cardinality(${t.personality}) <= ${sql.raw(String(PERSONA_LIMITS.traitsMax))} and public.array_is_distinct(${t.personality})`,
    ),
    check("personas_description_length", sql`char_length(${t.description}) <= ${sql.raw(String(PERSONA_LIMITS.descriptionMax))}`),
    check("personas_backstory_length", sql`char_length(${t.backstory}) <= ${sql.raw(String(PERSONA_LIMITS.backstoryMax))}`),
    check("personas_narrative_length", sql`char_length(${t.narrative}) <= ${sql.raw(String(PERSONA_LIMITS.narrativeMax))}`),
    check("personas_image_style_valid", oneOf(sql`${t.imageStyle}`, IMAGE_STYLES)),
    check("personas_status_valid", oneOf(sql`${t.status}`, PERSONA_STATUSES)),
    // A persona past the draft stage has every field docs/product.md (Personas) calls required.
    check(
      "personas_status_before_archive_valid",
      sql`${t.statusBeforeArchive} is null or (${t.status} = 'archived' and ${t.statusBeforeArchive} in ('active', 'in_progress'))`,
    ),
    check(
      "personas_extended_valid",
      sql`${t.extended} is null or (jsonb_typeof(${t.extended}) = 'object' and octet_length(${t.extended}::text) <= 65536)`,
    ),
    check("personas_voice_valid", sql`jsonb_typeof(${t.voice}) = 'object' and octet_length(${t.voice}::text) <= 65536`),
    check("personas_lore_valid", sql`jsonb_typeof(${t.lore}) = 'object' and octet_length(${t.lore}::text) <= 2097152`),
    check(
      "personas_card_meta_valid",
      sql`${t.cardMeta} is null or (jsonb_typeof(${t.cardMeta}) = 'object' and octet_length(${t.cardMeta}::text) <= 2097152)`,
    ),
    check(
      "personas_complete_unless_draft",
      sql`${t.status} = 'in_progress' or coalesce(${t.statusBeforeArchive}, '') = 'in_progress' or (${t.type} is not null and ${t.gender} is not null and ${t.ageRange} is not null and cardinality(${t.interests}) >= ${sql.raw(String(PERSONA_LIMITS.interestsMin))} and ${t.description} is not null)`,
    ),
    pgPolicy("personas_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("personas_insert_own", { for: "insert", to: authenticatedRole, withCheck: sql`${t.userId} = ${authUid}` }),
    pgPolicy("personas_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid}`,
    }),
    pgPolicy("personas_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// A chat message belongs to whoever owns its persona.
const ownsPersona = (personaId: SQL) => sql`exists (select 1 from public.personas p where p.id = ${personaId} and p.user_id = ${authUid})`;

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull(),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull().defaultNow(),
    isDeleted: boolean("is_deleted").notNull().default(false),
    // Insertion order: a user message and its reply can share a timestamp's microsecond.
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    // The idempotency key of the no-JavaScript send form: a double submit stores one message.
    clientKey: uuid("client_key"),
    // The lore entries a reply drew on (docs/product.md, Lore in chat), as [{ id, name }]; null when none.
    lore: jsonb("lore").$type<{ id: string; name: string }[]>(),
    // The persona version a reply was written with (docs/product.md, Persona tests); null for the creator's messages and older replies.
    personaVersion: integer("persona_version"),
    // Every reply written for this turn (docs/product.md, Chat: alternatives), oldest first; null
    // while there is one. The row's content, lore and persona_version are the chosen one's.
    alternatives: jsonb("alternatives").$type<StoredAlternative[]>(),
    // The index of the alternative shown, the one the conversation continues from.
    chosen: integer("chosen"),
    // What the reply checks found (docs/product.md, Chat: checks on your chats): [] passed; null not checked.
    checks: jsonb("checks").$type<ReplyFlag[]>(),
  },
  (t) => [
    index("chat_messages_persona_id_timestamp_idx").on(t.personaId, t.timestamp),
    index("chat_messages_persona_id_seq_idx").on(t.personaId, t.seq),
    index("chat_messages_persona_id_version_idx")
      .on(t.personaId, t.personaVersion)
      .where(sql`${t.checks} is not null`),
    uniqueIndex("chat_messages_persona_id_client_key_idx").on(t.personaId, t.clientKey),
    check("chat_messages_role_valid", oneOf(sql`${t.role}`, CHAT_ROLES)),
    check(
      "chat_messages_lore_valid",
      sql`${t.lore} is null or (jsonb_typeof(${t.lore}) = 'array' and octet_length(${t.lore}::text) <= 65536)`,
    ),
    check(
      "chat_messages_alternatives_valid",
      sql`(${t.alternatives} is null and ${t.chosen} is null) or (${t.role} = 'assistant' and jsonb_typeof(${t.alternatives}) = 'array' and jsonb_array_length(${t.alternatives}) between 2 and ${sql.raw(String(CHAT_ALTERNATIVES_MAX))} and ${t.chosen} between 0 and jsonb_array_length(${t.alternatives}) - 1 and octet_length(${t.alternatives}::text) <= 2097152)`,
    ),
    check(
      "chat_messages_checks_valid",
      sql`${t.checks} is null or (jsonb_typeof(${t.checks}) = 'array' and octet_length(${t.checks}::text) <= 16384)`,
    ),
    check(
      "chat_messages_content_length",
      sql`char_length(${t.content}) between 1 and ${sql.raw(String(PERSONA_LIMITS.chatMessageMax * 4))}`,
    ),
    pgPolicy("chat_messages_select_own", { for: "select", to: authenticatedRole, using: ownsPersona(sql`${t.personaId}`) }),
    pgPolicy("chat_messages_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: ownsPersona(sql`${t.personaId}`),
    }),
    pgPolicy("chat_messages_update_own", {
      for: "update",
      to: authenticatedRole,
      using: ownsPersona(sql`${t.personaId}`),
      withCheck: ownsPersona(sql`${t.personaId}`),
    }),
    pgPolicy("chat_messages_delete_own", { for: "delete", to: authenticatedRole, using: ownsPersona(sql`${t.personaId}`) }),
  ],
).enableRLS();

export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    personaCreation: boolean("persona_creation").notNull().default(true),
    narrativeGeneration: boolean("narrative_generation").notNull().default(true),
    imageGeneration: boolean("image_generation").notNull().default(true),
    marketingEmails: boolean("marketing_emails").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    pgPolicy("notification_preferences_select_own", {
      for: "select",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
    }),
    pgPolicy("notification_preferences_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: sql`${t.userId} = ${authUid}`,
    }),
    pgPolicy("notification_preferences_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid}`,
    }),
    pgPolicy("notification_preferences_delete_own", {
      for: "delete",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
    }),
  ],
).enableRLS();

// One row per AI generation a creator asked for (backstories, chat replies, images): the
// dashboard's 'Generated Content'. Rows are written by the server as the user and never changed.
/** Bytes (bytea): digests. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

export const generations = pgTable(
  "generations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    createdAt: createdAt(),
    // What a backstory generation wrote, as the md5 of its text (never the text), and by which
    // model (null: the built-in generator): an export says a backstory kept as written was generated.
    outputDigest: bytea("output_digest"),
    model: text("model"),
  },
  (t) => [
    index("generations_user_id_idx").on(t.userId),
    index("generations_user_id_output_digest_idx")
      .on(t.userId, t.outputDigest)
      .where(sql`${t.outputDigest} is not null`),
    check("generations_kind_valid", oneOf(sql`${t.kind}`, GENERATION_KINDS)),
    check("generations_output_digest_valid", sql`${t.outputDigest} is null or octet_length(${t.outputDigest}) = 16`),
    check("generations_model_valid", sql`${t.model} is null or char_length(${t.model}) between 1 and 100`),
    pgPolicy("generations_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("generations_insert_own", { for: "insert", to: authenticatedRole, withCheck: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// Stripe webhook events already applied, by event id: a redelivered event is a no-op. Written
// only by the webhook through the service-role door; RLS is on with no policy and the
// user roles get no privileges (migration billing_grants), so no creator reads or forges them.
export const stripeEvents = pgTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("stripe_events_processed_at_idx").on(t.processedAt)],
).enableRLS();

// Persona history (docs/product.md, History): one immutable row per change of a persona, written only by the
// database (trigger record_persona_version, migration persona_versions_trigger), never by the
// app. An owner reads their personas' versions; nobody inserts, updates or deletes one
// directly (no grants, no policies); deleting the persona deletes them. The long texts
// (backstory, narrative) are stored only in the version that changed them: `backstoryVersion`
// names the version whose row holds this version's backstory.
export const personaVersions = pgTable(
  "persona_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    version: integer("version").notNull(),
    kind: text("kind").notNull(),
    restoredFrom: integer("restored_from"),
    changedBy: uuid("changed_by"),
    createdAt: createdAt(),
    name: text("name").notNull(),
    type: text("type"),
    gender: text("gender"),
    ageRange: text("age_range"),
    interests: text("interests").array().notNull(),
    description: text("description"),
    personality: text("personality").array().notNull(),
    backstory: text("backstory"),
    backstoryVersion: integer("backstory_version").notNull(),
    narrative: text("narrative"),
    narrativeVersion: integer("narrative_version").notNull(),
    imageUrl: text("image_url"),
    secondaryImageUrl: text("secondary_image_url"),
    imageStyle: text("image_style").notNull(),
    status: text("status").notNull(),
    statusBeforeArchive: text("status_before_archive"),
    // The voice and the fact sheet as they were; null in versions written before history held them.
    voice: jsonb("voice").$type<Record<string, unknown>>(),
    extended: jsonb("extended").$type<Record<string, unknown>>(),
    // The lorebook as it was, without its entries (persona_version_lore() puts it back together);
    // null in versions written before history held it.
    lore: jsonb("lore").$type<Record<string, unknown>>(),
    // Its entries, in order: ids in personaLoreEntries; null where `lore` holds no entry list.
    loreEntries: integer("lore_entries").array(),
    // What an imported card carried (personas.card_meta), only in a version that changed it; a
    // note the change said of itself ('Card check: …'). Migration 20261202181000_card_fixes_in_history.
    cardMeta: jsonb("card_meta").$type<Record<string, unknown>>(),
    note: text("note"),
  },
  (t) => [
    uniqueIndex("persona_versions_persona_id_version_idx").on(t.personaId, t.version.desc()),
    check("persona_versions_version_positive", sql`${t.version} >= 1`),
    check("persona_versions_kind_valid", oneOf(sql`${t.kind}`, VERSION_KINDS)),
    check(
      "persona_versions_text_versions_valid",
      sql`${t.backstoryVersion} between 1 and ${t.version} and ${t.narrativeVersion} between 1 and ${t.version}`,
    ),
    check(
      "persona_versions_restored_from_valid",
      sql`(${t.kind} = 'restored') = (${t.restoredFrom} is not null) and (${t.restoredFrom} is null or ${t.restoredFrom} between 1 and ${t.version} - 1)`,
    ),
    check("persona_versions_note_valid", sql`${t.note} is null or char_length(${t.note}) between 1 and 300`),
    check(
      "persona_versions_card_meta_valid",
      sql`${t.cardMeta} is null or (jsonb_typeof(${t.cardMeta}) = 'object' and octet_length(${t.cardMeta}::text) <= 2097152)`,
    ),
    pgPolicy("persona_versions_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// Each distinct lorebook entry of a persona, stored once and referenced by the versions that hold
// it (docs/decisions/028-a-lorebook-kept-with-the-persona.md). Only the version trigger writes it.
export const personaLoreEntries = pgTable(
  "persona_lore_entries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    digest: bytea("digest").notNull(),
    entry: jsonb("entry").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("persona_lore_entries_persona_digest_idx").on(t.personaId, t.digest),
    check("persona_lore_entries_digest_valid", sql`octet_length(${t.digest}) = 16`),
    check("persona_lore_entries_entry_valid", sql`octet_length(${t.entry}::text) <= 2097152`),
    pgPolicy("persona_lore_entries_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// Reference image generation (docs/product.md, Reference images): at most one job per persona (the primary key), run
// off the request by the server. A running job is 'generating'; a finished one is deleted (its
// images are on the persona) and a failed one stays 'failed' with the reason until the next
// start. `deadline`: past it a 'generating' job counts as failed (a server that died mid-job
// leaves nothing generating forever).
export const IMAGE_JOB_STATUSES = ["generating", "failed"] as const;
export const imageJobs = pgTable(
  "image_jobs",
  {
    personaId: uuid("persona_id")
      .primaryKey()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    style: text("style").notNull(),
    status: text("status").notNull().default("generating"),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    deadline: timestamp("deadline", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Where the outcome mail goes (the creator's address when the generation started). */
    notifyEmail: text("notify_email"),
  },
  (t) => [
    index("image_jobs_user_id_idx").on(t.userId),
    check("image_jobs_style_valid", oneOf(sql`${t.style}`, IMAGE_STYLES)),
    check("image_jobs_status_valid", oneOf(sql`${t.status}`, IMAGE_JOB_STATUSES)),
    check("image_jobs_error_length", sql`char_length(${t.error}) <= 500`),
    pgPolicy("image_jobs_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("image_jobs_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    // The persona check again on update: a job moved onto another user's persona would block
    // their generation with a row they cannot see.
    pgPolicy("image_jobs_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("image_jobs_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// What waits for a creator's notification digest (docs/product.md, Settings), written and
// deleted by the server as the service role only; the creator reads their own rows.
export const NOTIFICATION_KINDS = ["persona_created", "backstory_generated", "images_ready", "images_failed"] as const;

export const notificationQueue = pgTable(
  "notification_queue",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    kind: text("kind").notNull(),
    detail: text("detail"),
    createdAt: createdAt(),
    /** When the digest holding this event is due (a digest job runs then). */
    digestDueAt: timestamp("digest_due_at", { withTimezone: true }),
  },
  (t) => [
    index("notification_queue_user_id_created_at_idx").on(t.userId, t.createdAt),
    index("notification_queue_persona_id_idx").on(t.personaId),
    check("notification_queue_kind_valid", oneOf(sql`${t.kind}`, NOTIFICATION_KINDS)),
    check("notification_queue_email_length", sql`char_length(${t.email}) between 3 and 320`),
    check("notification_queue_detail_length", sql`char_length(${t.detail}) <= 500`),
    pgPolicy("notification_queue_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// Persona tests (docs/product.md, Persona tests; migration 20261127010000_persona_tests): a persona's
// probes, one row each in the creator's order, guarded by the persona's owner; and runs of them
// against one version each. A new version of a persona with enabled probes queues a run (trigger
// persona_versions_queue_probe_run); at most one queued and one running run per persona.
export const personaProbes = pgTable(
  "persona_probes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    probe: jsonb("probe").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("persona_probes_persona_id_position_idx").on(t.personaId, t.position),
    check("persona_probes_probe_valid", sql`jsonb_typeof(${t.probe}) = 'object' and octet_length(${t.probe}::text) <= 65536`),
    pgPolicy("persona_probes_select_own", { for: "select", to: authenticatedRole, using: ownsPersona(sql`${t.personaId}`) }),
    pgPolicy("persona_probes_insert_own", { for: "insert", to: authenticatedRole, withCheck: ownsPersona(sql`${t.personaId}`) }),
    pgPolicy("persona_probes_update_own", {
      for: "update",
      to: authenticatedRole,
      using: ownsPersona(sql`${t.personaId}`),
      withCheck: ownsPersona(sql`${t.personaId}`),
    }),
    pgPolicy("persona_probes_delete_own", { for: "delete", to: authenticatedRole, using: ownsPersona(sql`${t.personaId}`) }),
  ],
).enableRLS();

export const PROBE_RUN_TRIGGERS = ["manual", "version"] as const;

export const probeRuns = pgTable(
  "probe_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    trigger: text("trigger").notNull(),
    model: text("model"),
    status: text("status").notNull().default("queued"),
    total: integer("total").notNull().default(0),
    passed: integer("passed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    results: jsonb("results")
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    deadline: timestamp("deadline", { withTimezone: true }),
  },
  (t) => [
    index("probe_runs_persona_id_created_at_idx").on(t.personaId, t.createdAt.desc()),
    index("probe_runs_user_id_idx").on(t.userId),
    uniqueIndex("probe_runs_one_queued_idx")
      .on(t.personaId)
      .where(sql`status = 'queued'`),
    uniqueIndex("probe_runs_one_running_idx")
      .on(t.personaId)
      .where(sql`status = 'running'`),
    check("probe_runs_version_positive", sql`${t.version} >= 1`),
    check("probe_runs_trigger_valid", oneOf(sql`${t.trigger}`, PROBE_RUN_TRIGGERS)),
    check("probe_runs_status_valid", oneOf(sql`${t.status}`, ["queued", "running", "completed", "failed"])),
    check(
      "probe_runs_counts_valid",
      sql`${t.total} >= 0 and ${t.passed} >= 0 and ${t.failed} >= 0 and ${t.passed} + ${t.failed} <= ${t.total}`,
    ),
    check("probe_runs_results_valid", sql`jsonb_typeof(${t.results}) = 'array' and octet_length(${t.results}::text) <= 1048576`),
    check("probe_runs_error_length", sql`char_length(${t.error}) <= 500`),
    check("probe_runs_model_length", sql`char_length(${t.model}) <= 200`),
    pgPolicy("probe_runs_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("probe_runs_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("probe_runs_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("probe_runs_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

/** A run of the persona's tests in each front end (docs/cards.md, Behaviour in each front end). */
export const cardTargetRuns = pgTable(
  "card_target_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    model: text("model"),
    status: text("status").notNull().default("queued"),
    here: jsonb("here").$type<unknown>(),
    results: jsonb("results")
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    deadline: timestamp("deadline", { withTimezone: true }),
  },
  (t) => [
    index("card_target_runs_persona_id_created_at_idx").on(t.personaId, t.createdAt.desc()),
    index("card_target_runs_user_id_idx").on(t.userId),
    uniqueIndex("card_target_runs_one_queued_idx")
      .on(t.personaId)
      .where(sql`status = 'queued'`),
    check("card_target_runs_version_positive", sql`${t.version} >= 1`),
    check("card_target_runs_status_valid", oneOf(sql`${t.status}`, ["queued", "running", "completed", "failed"])),
    check("card_target_runs_results_valid", sql`jsonb_typeof(${t.results}) = 'array' and octet_length(${t.results}::text) <= 1048576`),
    check(
      "card_target_runs_here_valid",
      sql`${t.here} is null or (jsonb_typeof(${t.here}) = 'object' and octet_length(${t.here}::text) <= 262144)`,
    ),
    check("card_target_runs_error_length", sql`char_length(${t.error}) <= 500`),
    check("card_target_runs_model_length", sql`char_length(${t.model}) <= 200`),
    pgPolicy("card_target_runs_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("card_target_runs_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("card_target_runs_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("card_target_runs_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

// Long-conversation tests (supabase/migrations/20261208100000_conversation_tests.sql).
export const conversationTests = pgTable(
  "conversation_tests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    personaId: uuid("persona_id")
      .notNull()
      .references(() => personas.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    model: text("model"),
    status: text("status").notNull().default("queued"),
    turns: integer("turns").notNull(),
    seed: bigint("seed", { mode: "number" }).notNull(),
    done: integer("done").notNull().default(0),
    checkpoints: jsonb("checkpoints")
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    firstFailure: jsonb("first_failure")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    transcript: jsonb("transcript")
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    deadline: timestamp("deadline", { withTimezone: true }),
    fix: jsonb("fix").$type<Record<string, unknown>>(),
    baseRunId: uuid("base_run_id").references((): AnyPgColumn => conversationTests.id, { onDelete: "cascade" }),
    notes: jsonb("notes")
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [
    index("conversation_tests_persona_id_created_at_idx").on(t.personaId, t.createdAt.desc()),
    index("conversation_tests_user_id_idx").on(t.userId),
    uniqueIndex("conversation_tests_one_queued_idx")
      .on(t.personaId)
      .where(sql`status = 'queued' and fix is null`),
    uniqueIndex("conversation_tests_one_queued_fix_idx")
      .on(t.personaId)
      .where(sql`status = 'queued' and fix is not null`),
    index("conversation_tests_base_run_id_idx").on(t.baseRunId),
    check("conversation_tests_version_positive", sql`${t.version} >= 1`),
    check("conversation_tests_status_valid", oneOf(sql`${t.status}`, ["queued", "running", "completed", "failed"])),
    check("conversation_tests_turns_valid", sql`${t.turns} between 4 and 60 and ${t.done} between 0 and ${t.turns}`),
    check("conversation_tests_seed_valid", sql`${t.seed} between 0 and 2147483647`),
    check(
      "conversation_tests_checkpoints_valid",
      sql`jsonb_typeof(${t.checkpoints}) = 'array' and octet_length(${t.checkpoints}::text) <= 2097152`,
    ),
    check(
      "conversation_tests_first_failure_valid",
      sql`jsonb_typeof(${t.firstFailure}) = 'object' and octet_length(${t.firstFailure}::text) <= 4096`,
    ),
    check(
      "conversation_tests_transcript_valid",
      sql`jsonb_typeof(${t.transcript}) = 'array' and octet_length(${t.transcript}::text) <= 2097152`,
    ),
    check("conversation_tests_error_length", sql`char_length(${t.error}) <= 500`),
    check(
      "conversation_tests_fix_valid",
      sql`${t.fix} is null or (jsonb_typeof(${t.fix}) = 'object' and octet_length(${t.fix}::text) <= 16384)`,
    ),
    check("conversation_tests_notes_valid", sql`jsonb_typeof(${t.notes}) = 'array' and octet_length(${t.notes}::text) <= 65536`),
    check("conversation_tests_fix_has_base", sql`(${t.fix} is null) = (${t.baseRunId} is null)`),
    check("conversation_tests_model_length", sql`char_length(${t.model}) <= 200`),
    pgPolicy("conversation_tests_select_own", { for: "select", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
    pgPolicy("conversation_tests_insert_own", {
      for: "insert",
      to: authenticatedRole,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("conversation_tests_update_own", {
      for: "update",
      to: authenticatedRole,
      using: sql`${t.userId} = ${authUid}`,
      withCheck: sql`${t.userId} = ${authUid} and ${ownsPersona(sql`${t.personaId}`)}`,
    }),
    pgPolicy("conversation_tests_delete_own", { for: "delete", to: authenticatedRole, using: sql`${t.userId} = ${authUid}` }),
  ],
).enableRLS();

export type Profile = typeof profiles.$inferSelect;
export type Persona = typeof personas.$inferSelect;
export type NewPersona = typeof personas.$inferInsert;
export type ChatMessage = typeof chatMessages.$inferSelect;
export type PersonaVersion = typeof personaVersions.$inferSelect;
export type ImageJob = typeof imageJobs.$inferSelect;
export type PersonaProbeRow = typeof personaProbes.$inferSelect;
export type ProbeRun = typeof probeRuns.$inferSelect;
export type CardTargetRun = typeof cardTargetRuns.$inferSelect;
export type ConversationTest = typeof conversationTests.$inferSelect;
export type NotificationPreferences = typeof notificationPreferences.$inferSelect;
export type QueuedNotification = typeof notificationQueue.$inferSelect;
