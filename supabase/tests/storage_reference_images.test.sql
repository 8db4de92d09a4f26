-- Supabase Storage, bucket reference-images: private, images only, 10 MB; a signed-in user
-- reads, adds, changes and removes only objects under their own folder (<userId>/…); nobody
-- else's, no other bucket through these policies, and anon nothing. Runs on Supabase's own
-- storage schema and on plain Postgres/PGlite with supabase/bootstrap/storage-compat.sql.
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(16);

create function pg_temp.row_count(statement text) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  execute statement;
  get diagnostics n = row_count;
  return n;
exception when insufficient_privilege then
  return 0;
end;
$$;

-- ---------------------------------------------------------------- the bucket
select results_eq(
  $$ select public, file_size_limit, allowed_mime_types::text[] from storage.buckets where id = 'reference-images' $$,
  $$ values (false, 10485760::bigint, array['image/png', 'image/jpeg', 'image/webp']::text[]) $$,
  'reference-images is private, 10 MB at most, PNG, JPEG and WebP only'
);
select policies_are('storage', 'objects',
  array['reference_images_select_own', 'reference_images_insert_own', 'reference_images_update_own', 'reference_images_delete_own'],
  'storage.objects has exactly the four reference-images policies');
select is_empty(
  $$ select policyname from pg_policies
     where schemaname = 'storage' and tablename = 'objects' and policyname like 'reference_images_%'
       and (roles <> array['authenticated']::name[]
            or coalesce(qual, with_check) !~ 'reference-images'
            or coalesce(qual, with_check) !~ 'foldername'
            or coalesce(qual, with_check) !~ 'auth\.uid\(\)') $$,
  'each policy is for authenticated, bucket reference-images and the caller''s own folder'
);

-- Objects as storage-api would write them (as the service, bypassing RLS).
insert into storage.buckets (id, name, public) values ('other-bucket', 'other-bucket', false) on conflict (id) do nothing;
insert into storage.objects (bucket_id, name, owner_id) values
  ('reference-images', '11111111-1111-4111-8111-111111111111/a0000000-0000-4000-8000-000000000001/primary-0123456789abcdef.webp', '11111111-1111-4111-8111-111111111111'),
  ('reference-images', '22222222-2222-4222-8222-222222222222/b0000000-0000-4000-8000-000000000001/primary-0123456789abcdef.webp', '22222222-2222-4222-8222-222222222222'),
  ('other-bucket', '22222222-2222-4222-8222-222222222222/elsewhere.webp', '22222222-2222-4222-8222-222222222222');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select results_eq(
  $$ select name from storage.objects order by name $$,
  $$ values ('22222222-2222-4222-8222-222222222222/b0000000-0000-4000-8000-000000000001/primary-0123456789abcdef.webp'::text) $$,
  'select: Bob sees only his own reference images (not Alice''s, not another bucket''s)'
);
select lives_ok(
  $$ insert into storage.objects (bucket_id, name, owner_id)
     values ('reference-images', '22222222-2222-4222-8222-222222222222/b0000000-0000-4000-8000-000000000001/secondary-0123456789abcdef.webp', '22222222-2222-4222-8222-222222222222') $$,
  'insert: Bob adds an image in his own folder'
);
select throws_ok(
  $$ insert into storage.objects (bucket_id, name, owner_id)
     values ('reference-images', '11111111-1111-4111-8111-111111111111/a0000000-0000-4000-8000-000000000001/evil.webp', '22222222-2222-4222-8222-222222222222') $$,
  '42501', null,
  'insert: Bob cannot add an image in Alice''s folder'
);
select throws_ok(
  $$ insert into storage.objects (bucket_id, name, owner_id)
     values ('reference-images', 'top-level.webp', '22222222-2222-4222-8222-222222222222') $$,
  '42501', null,
  'insert: nothing outside a user folder'
);
select throws_ok(
  $$ insert into storage.objects (bucket_id, name, owner_id)
     values ('other-bucket', '22222222-2222-4222-8222-222222222222/x.webp', '22222222-2222-4222-8222-222222222222') $$,
  '42501', null,
  'insert: these policies open no other bucket'
);
select is(
  pg_temp.row_count($$ update storage.objects set metadata = '{"x":1}' where name like '11111111-%' $$),
  0::bigint,
  'update: Bob cannot change Alice''s images'
);
select throws_ok(
  $$ update storage.objects set name = '11111111-1111-4111-8111-111111111111/a0000000-0000-4000-8000-000000000001/moved.webp'
     where name like '22222222-2222-4222-8222-222222222222/b0000000-0000-4000-8000-000000000001/primary%' $$,
  '42501', null,
  'update: Bob cannot move his image into Alice''s folder'
);
-- As storage-api deletes (Supabase's protect_delete trigger refuses other direct deletes).
set local storage.allow_delete_query = 'true';
select is(
  pg_temp.row_count($$ delete from storage.objects where name like '11111111-%' $$),
  0::bigint,
  'delete: Bob cannot remove Alice''s images'
);
select is(
  pg_temp.row_count($$ delete from storage.objects where name like '22222222-2222-4222-8222-222222222222/b0000000-%' $$),
  2::bigint,
  'delete: Bob removes his own images'
);

-- ---------------------------------------------------------------- as Alice, guessing paths
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select is(
  pg_temp.row_count($$ select * from storage.objects where name = '22222222-2222-4222-8222-222222222222/elsewhere.webp' $$),
  0::bigint,
  'select: Alice finds nothing of Bob''s by guessing its path'
);
select is(
  pg_temp.row_count($$ select * from storage.objects where bucket_id = 'reference-images' $$),
  1::bigint,
  'select: Alice sees her one image'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from storage.objects where bucket_id = 'reference-images' $$), 0::bigint, 'anon: sees no reference image');
select throws_ok(
  $$ insert into storage.objects (bucket_id, name) values ('reference-images', '11111111-1111-4111-8111-111111111111/a0000000-0000-4000-8000-000000000001/x.webp') $$,
  '42501', null,
  'anon: cannot add an image'
);

select * from finish();
rollback;
