-- Hand-written: Supabase Storage for reference images (issue 11), for `supabase db push`
-- users (`supabase start` also creates the bucket from config.toml's
-- [storage.buckets.reference-images]; both say the same thing).
--
-- A private bucket: no public URLs, images only, 10 MB at most. Objects live at
-- <userId>/<personaId>/<file>; a signed-in creator may read, add, change and remove only the
-- objects in their own folder. The app itself writes with the service role and hands pages
-- short-lived signed URLs; these policies are what keeps anyone holding a user's token (the
-- browser's supabase client, a script) inside their own folder.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('reference-images', 'reference-images', false, 10485760, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update
  set public = false,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create policy "reference_images_select_own" on storage.objects
  as permissive for select to authenticated
  using (bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "reference_images_insert_own" on storage.objects
  as permissive for insert to authenticated
  with check (bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "reference_images_update_own" on storage.objects
  as permissive for update to authenticated
  using (bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "reference_images_delete_own" on storage.objects
  as permissive for delete to authenticated
  using (bucket_id = 'reference-images' and (storage.foldername(name))[1] = (select auth.uid())::text);
