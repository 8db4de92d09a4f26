-- Hand-written: Supabase Storage for reference images (docs/decisions/007-reference-images.md), for `supabase db push`
-- users (`supabase start` also creates the bucket from config.toml's
-- [storage.buckets.reference-images]; both say the same thing).
--
-- A private bucket: no public URLs, images only, 10 MB at most. Objects live at
-- <userId>/<personaId>/<file>; a signed-in creator may read, add, change and remove only the
-- objects in their own folder. The app itself writes with the service role and hands pages
-- short-lived signed URLs; these policies are what keeps anyone holding a user's token (the
-- browser's supabase client, a script) inside their own folder.
--
-- Creating a policy on storage.objects needs its owner (supabase_storage_admin). Projects
-- created since 2025 no longer let `postgres` (what `supabase db push` runs as) act as that
-- owner, so there the policies are created only when this runs as a role that may; otherwise
-- the migration says so and goes on. Without them the bucket is still closed to every user
-- token (storage RLS denies by default); the app does not need them. To add them, run this
-- file as the storage owner (`psql "postgres://supabase_storage_admin@…" -f <this file>`; on
-- a hosted project paste the block below into the dashboard's SQL editor): it is idempotent.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('reference-images', 'reference-images', false, 10485760, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update
  set public = false,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

do $policies$
declare
  owner_role name := (select tableowner from pg_tables where schemaname = 'storage' and tablename = 'objects');
  own_folder constant text := $$bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text$$;
begin
  if not pg_has_role(current_user, owner_role, 'USAGE') then
    raise warning 'reference-images: % may not create policies on storage.objects (owned by %); the bucket stays closed to user tokens. Run this migration file as % to add the per-folder policies.',
      current_user, owner_role, owner_role;
    return;
  end if;
  execute 'drop policy if exists "reference_images_select_own" on storage.objects';
  execute 'drop policy if exists "reference_images_insert_own" on storage.objects';
  execute 'drop policy if exists "reference_images_update_own" on storage.objects';
  execute 'drop policy if exists "reference_images_delete_own" on storage.objects';
  execute format('create policy "reference_images_select_own" on storage.objects as permissive for select to authenticated using (%s)', own_folder);
  execute format('create policy "reference_images_insert_own" on storage.objects as permissive for insert to authenticated with check (%s)', own_folder);
  execute format('create policy "reference_images_update_own" on storage.objects as permissive for update to authenticated using (%s) with check (%s)', own_folder, own_folder);
  execute format('create policy "reference_images_delete_own" on storage.objects as permissive for delete to authenticated using (%s)', own_folder);
end
$policies$;
