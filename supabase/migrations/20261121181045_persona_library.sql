CREATE TABLE "generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generations_kind_valid" CHECK ("generations"."kind" = any (array['backstory', 'chat', 'image']::text[]))
);
--> statement-breakpoint
ALTER TABLE "generations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "personas" DROP CONSTRAINT "personas_complete_unless_draft";--> statement-breakpoint
ALTER TABLE "personas" ADD COLUMN "status_before_archive" text;--> statement-breakpoint
ALTER TABLE "personas" ADD COLUMN "extended" jsonb;--> statement-breakpoint
ALTER TABLE "personas" ADD COLUMN "card_meta" jsonb;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generations_user_id_idx" ON "generations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "personas_user_id_name_idx" ON "personas" USING btree ("user_id",lower("name"));--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_status_before_archive_valid" CHECK ("personas"."status_before_archive" is null or ("personas"."status" = 'archived' and "personas"."status_before_archive" in ('active', 'in_progress')));--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_extended_valid" CHECK ("personas"."extended" is null or (jsonb_typeof("personas"."extended") = 'object' and octet_length("personas"."extended"::text) <= 65536));--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_card_meta_valid" CHECK ("personas"."card_meta" is null or (jsonb_typeof("personas"."card_meta") = 'object' and octet_length("personas"."card_meta"::text) <= 2097152));--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_complete_unless_draft" CHECK ("personas"."status" = 'in_progress' or coalesce("personas"."status_before_archive", '') = 'in_progress' or ("personas"."type" is not null and "personas"."gender" is not null and "personas"."age_range" is not null and cardinality("personas"."interests") >= 1 and "personas"."description" is not null));--> statement-breakpoint
CREATE POLICY "generations_select_own" ON "generations" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("generations"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "generations_insert_own" ON "generations" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("generations"."user_id" = (select auth.uid()));