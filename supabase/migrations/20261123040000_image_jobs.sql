CREATE TABLE "image_jobs" (
	"persona_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"style" text NOT NULL,
	"status" text DEFAULT 'generating' NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "image_jobs_style_valid" CHECK ("image_jobs"."style" = any (array['photorealistic', 'anime', 'digital_art', 'cinematic', 'minimalist']::text[])),
	CONSTRAINT "image_jobs_status_valid" CHECK ("image_jobs"."status" = any (array['generating', 'failed']::text[])),
	CONSTRAINT "image_jobs_error_length" CHECK (char_length("image_jobs"."error") <= 500)
);
--> statement-breakpoint
ALTER TABLE "image_jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "image_jobs" ADD CONSTRAINT "image_jobs_persona_id_personas_id_fk" FOREIGN KEY ("persona_id") REFERENCES "public"."personas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_jobs" ADD CONSTRAINT "image_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_jobs_user_id_idx" ON "image_jobs" USING btree ("user_id");--> statement-breakpoint
CREATE POLICY "image_jobs_select_own" ON "image_jobs" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("image_jobs"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "image_jobs_insert_own" ON "image_jobs" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("image_jobs"."user_id" = (select auth.uid()) and exists (select 1 from public.personas p where p.id = "image_jobs"."persona_id" and p.user_id = (select auth.uid())));--> statement-breakpoint
CREATE POLICY "image_jobs_update_own" ON "image_jobs" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("image_jobs"."user_id" = (select auth.uid())) WITH CHECK ("image_jobs"."user_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "image_jobs_delete_own" ON "image_jobs" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("image_jobs"."user_id" = (select auth.uid()));