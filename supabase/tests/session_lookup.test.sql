-- private.session_user_profile: the embedded auth's session check in one statement. It answers
-- only for an open session of an existing account (signing out, a password change or a reset
-- delete the session rows; deleting the account deletes them too), returns the profile with it,
-- and only the service role may call it.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;
set local search_path = public, extensions;

select plan(11);

select has_function('private', 'session_user_profile', array['uuid', 'uuid'], 'private.session_user_profile(uuid, uuid) exists');
select is(
  (select prosecdef from pg_proc where oid = 'private.session_user_profile(uuid, uuid)'::regprocedure),
  true,
  'it is SECURITY DEFINER (the caller needs no right on auth.sessions)'
);
select ok(
  not has_function_privilege('anon', 'private.session_user_profile(uuid, uuid)', 'execute')
    and not has_function_privilege('authenticated', 'private.session_user_profile(uuid, uuid)', 'execute'),
  'anon and authenticated may not execute it'
);

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());
insert into auth.sessions (id, user_id, not_after)
values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111', now() + interval '1 day'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '11111111-1111-4111-8111-111111111111', now() - interval '1 second'),
  ('cccccccc-cccc-4ccc-8ccc-cccccccccccc', '22222222-2222-4222-8222-222222222222', now() + interval '1 day');

-- ---------------------------------------------------------------- as anon
set local role anon;
select throws_ok(
  $$ select * from private.session_user_profile('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111') $$,
  '42501', null,
  'anon cannot ask'
);
reset role;

-- ---------------------------------------------------------------- as the service role
set local role service_role;
select results_eq(
  $$ select email, first_name, last_name, subscription_status
       from private.session_user_profile('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111') $$,
  $$ values ('alice@example.test'::text, 'Alice'::text, 'Archer'::text, 'free'::text) $$,
  'an open session: the account and its profile in one row'
);
select is_empty(
  $$ select * from private.session_user_profile('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '11111111-1111-4111-8111-111111111111') $$,
  'an expired session: nothing'
);
select is_empty(
  $$ select * from private.session_user_profile('cccccccc-cccc-4ccc-8ccc-cccccccccccc', '11111111-1111-4111-8111-111111111111') $$,
  'another user''s session named with this user''s id: nothing'
);
select is_empty(
  $$ select * from private.session_user_profile('dddddddd-dddd-4ddd-8ddd-dddddddddddd', '11111111-1111-4111-8111-111111111111') $$,
  'an unknown session: nothing'
);
reset role;

-- Signing out deletes the user's sessions: the very next check answers nothing.
delete from auth.sessions where user_id = '11111111-1111-4111-8111-111111111111';
set local role service_role;
select is_empty(
  $$ select * from private.session_user_profile('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111') $$,
  'after signing out: nothing'
);
reset role;

-- A soft-deleted account (Supabase's deleted_at) answers nothing either, session or not.
update auth.users set deleted_at = now() where id = '22222222-2222-4222-8222-222222222222';
set local role service_role;
select is_empty(
  $$ select * from private.session_user_profile('cccccccc-cccc-4ccc-8ccc-cccccccccccc', '22222222-2222-4222-8222-222222222222') $$,
  'a deleted account: nothing'
);
reset role;

-- The library's search is served by trigram indexes.
select ok(
  (select count(*) from pg_indexes where schemaname = 'public' and tablename = 'personas'
     and indexname in ('personas_name_trgm_idx', 'personas_description_trgm_idx')) = 2,
  'personas has trigram indexes on name and description'
);

select * from finish();
rollback;
