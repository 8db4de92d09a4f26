-- public.persona_versions: persona history, written by the database alone. An owner reads
-- their personas' versions; nobody (owner included) inserts, rewrites or deletes one; anon
-- sees nothing; archive is no version; deleting the persona deletes its versions.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;
set local search_path = public, extensions;

select plan(17);

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

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());

-- ---------------------------------------------------------------- as Alice: her writes make versions
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

insert into public.personas (id, user_id, name) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria');
update public.personas set name = 'Aria Vale', backstory = 'Born in a lighthouse.'
  where id = 'a0000000-0000-4000-8000-000000000001';
update public.personas set name = 'Aria V.' where id = 'a0000000-0000-4000-8000-000000000001';
update public.personas set status = 'archived', status_before_archive = status
  where id = 'a0000000-0000-4000-8000-000000000001';

select results_eq(
  $$ select version, kind, name, backstory_version, backstory is null
     from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' order by version $$,
  $$ values (1, 'draft_saved', 'Aria', 1, true), (2, 'draft_saved', 'Aria Vale', 2, false), (3, 'draft_saved', 'Aria V.', 2, true) $$,
  'each change is one version, archive none; an unchanged backstory points at the version holding it'
);
select is(
  (select changed_by from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' and version = 1),
  '11111111-1111-4111-8111-111111111111'::uuid,
  'a version records who made the change'
);
select throws_ok(
  $$ insert into public.persona_versions (persona_id, user_id, version, kind, name, interests, personality,
       backstory_version, narrative_version, image_style, status)
     values ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 9, 'edited', 'Forged',
       '{}', '{}', 9, 9, 'photorealistic', 'in_progress') $$,
  '42501', null,
  'insert: not even the owner writes a version directly'
);
select is(
  pg_temp.row_count($$ update public.persona_versions set name = 'Rewritten' $$),
  0::bigint,
  'update: the owner cannot rewrite history'
);
select is(
  pg_temp.row_count($$ delete from public.persona_versions $$),
  0::bigint,
  'delete: the owner cannot remove history'
);
select throws_ok(
  $$ select public.record_persona_version() $$,
  '42501', null,
  'the trigger function is not callable by users'
);

-- ---------------------------------------------------------------- as Bob
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

insert into public.personas (id, user_id, name) values
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bram');

select results_eq(
  $$ select persona_id, version from public.persona_versions $$,
  $$ values ('b0000000-0000-4000-8000-000000000001'::uuid, 1) $$,
  'select: Bob sees exactly his own persona''s versions'
);
select is_empty(
  $$ select 1 from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read Alice''s versions by persona id'
);
select is(
  pg_temp.row_count($$ update public.persona_versions set name = 'Hijacked' where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob cannot rewrite Alice''s history'
);
select is(
  pg_temp.row_count($$ delete from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'delete: Bob cannot remove Alice''s history'
);
select lives_ok(
  $$ select set_config('personaforge.version_kind', 'restored', true), set_config('personaforge.restored_from', '7', true);
     update public.personas set name = 'Bram Stone' where id = 'b0000000-0000-4000-8000-000000000001' $$,
  'a write with a hint naming a version that does not exist still succeeds'
);
select results_eq(
  $$ select version, kind, restored_from from public.persona_versions order by version $$,
  $$ values (1, 'draft_saved', null::integer), (2, 'draft_saved', null::integer) $$,
  'a forged restore hint is ignored'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(pg_temp.row_count($$ select * from public.persona_versions $$), 0::bigint, 'anon: select sees no row');

-- ---------------------------------------------------------------- as service_role
reset role;
set local role service_role;
set local request.jwt.claims = '{"role":"service_role"}';

select is(
  pg_temp.row_count($$ delete from public.persona_versions $$),
  0::bigint,
  'service_role: reads history but cannot delete it either'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select is(
  (select count(*) from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  3::bigint,
  'Alice''s history is untouched'
);

set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
reset role;
reset request.jwt.claims;
select is_empty(
  $$ select 1 from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'deleting a persona (as its owner) deletes its versions'
);
delete from auth.users where id = '22222222-2222-4222-8222-222222222222';
select is_empty(
  $$ select 1 from public.persona_versions where persona_id = 'b0000000-0000-4000-8000-000000000001' $$,
  'deleting an account deletes its personas'' versions'
);

select * from finish();
rollback;
