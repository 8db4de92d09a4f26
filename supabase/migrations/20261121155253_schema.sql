CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"persona_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "chat_messages_role_valid" CHECK ("chat_messages"."role" = any (array['user', 'assistant']::text[])),
	CONSTRAINT "chat_messages_content_length" CHECK (char_length("chat_messages"."content") between 1 and 16000)
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"persona_creation" boolean DEFAULT true NOT NULL,
	"narrative_generation" boolean DEFAULT true NOT NULL,
	"image_generation" boolean DEFAULT true NOT NULL,
	"marketing_emails" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "personas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"gender" text,
	"age_range" text,
	"interests" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text,
	"personality" text[] DEFAULT '{}'::text[] NOT NULL,
	"backstory" text,
	"narrative" text,
	"image_url" text,
	"secondary_image_url" text,
	"image_style" text DEFAULT 'photorealistic' NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personas_name_length" CHECK (char_length(btrim("personas"."name")) >= 2 and char_length("personas"."name") <= 80),
	CONSTRAINT "personas_type_valid" CHECK ("personas"."type" = any (array['influencer', 'vtuber', 'content', 'personality', 'educator', 'artist', 'advisor', 'entertainer', 'companion', 'specialist']::text[])),
	CONSTRAINT "personas_gender_valid" CHECK ("personas"."gender" = any (array['male', 'female', 'non-binary', 'other']::text[])),
	CONSTRAINT "personas_age_range_valid" CHECK ("personas"."age_range" = any (array['18-24', '25-34', '35-44', '45-54', '55+']::text[])),
	CONSTRAINT "personas_interests_valid" CHECK ("personas"."interests" <@ array['gaming', 'tech', 'fashion', 'music', 'art', 'fitness', 'science', 'cooking', 'travel', 'education', 'business', 'entertainment']::text[] and cardinality("personas"."interests") <= 3 and public.array_is_distinct("personas"."interests")),
	CONSTRAINT "personas_personality_valid" CHECK ("personas"."personality" <@ array['Outgoing', 'Reserved', 'Social', 'Quiet', 'Assertive', 'Reflective', 'Stable', 'Reactive', 'Calm', 'Passionate', 'Sensitive', 'Resilient', 'Creative', 'Conventional', 'Curious', 'Cautious', 'Imaginative', 'Practical', 'Compassionate', 'Competitive', 'Empathetic', 'Direct', 'Trusting', 'Skeptical', 'Organized', 'Flexible', 'Disciplined', 'Spontaneous', 'Focused', 'Adaptable', 'Entertaining', 'Educational', 'Authentic', 'Aspirational', 'Humorous', 'Inspirational']::text[] and cardinality("personas"."personality") <= 7 and public.array_is_distinct("personas"."personality")),
	CONSTRAINT "personas_description_length" CHECK (char_length("personas"."description") <= 150),
	CONSTRAINT "personas_backstory_length" CHECK (char_length("personas"."backstory") <= 20000),
	CONSTRAINT "personas_narrative_length" CHECK (char_length("personas"."narrative") <= 50000),
	CONSTRAINT "personas_image_style_valid" CHECK ("personas"."image_style" = any (array['photorealistic', 'anime', 'digital_art', 'cinematic', 'minimalist']::text[])),
	CONSTRAINT "personas_status_valid" CHECK ("personas"."status" = any (array['active', 'in_progress', 'archived']::text[])),
	CONSTRAINT "personas_complete_unless_draft" CHECK ("personas"."status" = 'in_progress' or ("personas"."type" is not null and "personas"."gender" is not null and "personas"."age_range" is not null and cardinality("personas"."interests") >= 1 and "personas"."description" is not null))
);
--> statement-breakpoint
ALTER TABLE "personas" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"profile_image_url" text,
	"auth_method" text DEFAULT 'email' NOT NULL,
	"subscription_status" text DEFAULT 'free' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"subscription_expires_at" timestamp with time zone,
	"personas_created" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_first_name_length" CHECK (char_length("profiles"."first_name") <= 60),
	CONSTRAINT "profiles_last_name_length" CHECK (char_length("profiles"."last_name") <= 60),
	CONSTRAINT "profiles_subscription_status_valid" CHECK ("profiles"."subscription_status" = any (array['free', 'active', 'trialing', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused']::text[])),
	CONSTRAINT "profiles_personas_created_non_negative" CHECK ("profiles"."personas_created" >= 0)
);
--> statement-breakpoint
ALTER TABLE "profiles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_users_id_fk" FOREIGN KEY ("id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_persona_id_timestamp_idx" ON "chat_messages" USING btree ("persona_id","timestamp");--> statement-breakpoint
CREATE INDEX "personas_user_id_idx" ON "personas" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "personas_status_idx" ON "personas" USING btree ("status");--> statement-breakpoint
CREATE INDEX "personas_type_idx" ON "personas" USING btree ("type");--> statement-breakpoint
CREATE INDEX "personas_created_at_idx" ON "personas" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "personas_user_id_created_at_idx" ON "personas" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE POLICY "chat_messages_select_own" ON "chat_messages" AS PERMISSIVE FOR SELECT TO "authenticated" USING (exists (select 1 from public.personas p where p.id = "chat_messages"."persona_id" and p.user_id = (select auth.uid())));--> statement-breakpoint
CREATE POLICY "chat_messages_insert_own" ON "chat_messages" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK (exists (select 1 from public.personas p where p.id = "chat_messages"."persona_id" and p.user_id = (select auth.uid())));--> statement-breakpoint
CREATE POLICY "chat_messages_update_own" ON "chat_messages" AS PERMISSIVE FOR UPDATE TO "authenticated" USING (exists (select 1 from public.personas p where p.id = "chat_messages"."persona_id" and p.user_id = (select auth.uid()))) WITH CHECK (exists (select 1 from public.personas p where p.id = "chat_messages"."persona_id" and p.user_id = (select auth.uid())));--> statement-breakpoint
CREATE POLICY "chat_messages_delete_own" ON "chat_messages" AS PERMISSIVE FOR DELETE TO "authenticated" USING (exists (select 1 from public.personas p where p.id = "chat_messages"."persona_id" and p.user_id = (select auth.uid())));--> statement-breakpoint
CREATE POLICY "notification_preferences_select_own" ON "notification_preferences" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("notification_preferences"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "notification_preferences_insert_own" ON "notification_preferences" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("notification_preferences"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "notification_preferences_update_own" ON "notification_preferences" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("notification_preferences"."user_id" = (select auth.uid())) WITH CHECK ("notification_preferences"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "notification_preferences_delete_own" ON "notification_preferences" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("notification_preferences"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "personas_select_own" ON "personas" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("personas"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "personas_insert_own" ON "personas" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("personas"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "personas_update_own" ON "personas" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("personas"."user_id" = (select auth.uid())) WITH CHECK ("personas"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "personas_delete_own" ON "personas" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("personas"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "profiles_select_own" ON "profiles" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("profiles"."id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "profiles_insert_own" ON "profiles" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("profiles"."id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "profiles_update_own" ON "profiles" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("profiles"."id" = (select auth.uid())) WITH CHECK ("profiles"."id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "profiles_delete_own" ON "profiles" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("profiles"."id" = (select auth.uid()));