CREATE TABLE "persona_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"persona_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"restored_from" integer,
	"changed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"gender" text,
	"age_range" text,
	"interests" text[] NOT NULL,
	"description" text,
	"personality" text[] NOT NULL,
	"backstory" text,
	"backstory_version" integer NOT NULL,
	"narrative" text,
	"narrative_version" integer NOT NULL,
	"image_url" text,
	"secondary_image_url" text,
	"image_style" text NOT NULL,
	"status" text NOT NULL,
	"status_before_archive" text,
	CONSTRAINT "persona_versions_version_positive" CHECK ("persona_versions"."version" >= 1),
	CONSTRAINT "persona_versions_kind_valid" CHECK ("persona_versions"."kind" = any (array['created', 'draft_saved', 'draft_completed', 'edited', 'image', 'restored', 'imported']::text[])),
	CONSTRAINT "persona_versions_text_versions_valid" CHECK ("persona_versions"."backstory_version" between 1 and "persona_versions"."version" and "persona_versions"."narrative_version" between 1 and "persona_versions"."version"),
	CONSTRAINT "persona_versions_restored_from_valid" CHECK (("persona_versions"."kind" = 'restored') = ("persona_versions"."restored_from" is not null) and ("persona_versions"."restored_from" is null or "persona_versions"."restored_from" between 1 and "persona_versions"."version" - 1))
);
--> statement-breakpoint
ALTER TABLE "persona_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "persona_versions" ADD CONSTRAINT "persona_versions_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "persona_versions_persona_id_version_idx" ON "persona_versions" USING btree ("persona_id","version" DESC NULLS LAST);--> statement-breakpoint
CREATE POLICY "persona_versions_select_own" ON "persona_versions" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("persona_versions"."user_id" = (select auth.uid()));