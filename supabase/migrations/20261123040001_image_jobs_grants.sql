-- Hand-written: privileges on image_jobs (reference image generation, docs/decisions/007-reference-images.md). A creator
-- reads, starts, finishes and clears their own personas' jobs (RLS decides which rows);
-- anon gets nothing.
revoke all on table public.image_jobs from anon, authenticated;
grant select, insert, update, delete on table public.image_jobs to authenticated;
grant all on table public.image_jobs to service_role;
