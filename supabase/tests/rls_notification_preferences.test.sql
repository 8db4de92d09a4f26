-- public.notification_preferences: one row per user, made by the sign-up trigger. A user
-- reads and toggles only their own; nobody forges, re-keys or deletes a row; anon sees nothing.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(20);

-- Rows touched (or returned) by a statement run as the current role; a privilege
-- error (42501) counts as zero: "denied or empty".
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

-- Backdate both rows so the updated_at trigger can be observed (with the trigger off,
-- since it restamps every update).
alter table public.notification_preferences disable trigger notification_preferences_set_updated_at;
update public.notification_preferences set updated_at = '2000-01-01';
alter table public.notification_preferences enable trigger notification_preferences_set_updated_at;

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select results_eq(
  $$ select user_id from public.notification_preferences $$,
  $$ values ('22222222-2222-4222-8222-222222222222'::uuid) $$,
  'select: Bob sees exactly his own preferences'
);
select is_empty(
  $$ select user_id from public.notification_preferences where user_id = '11111111-1111-4111-8111-111111111111' $$,
  'select: Bob cannot read Alice''s preferences by user_id'
);

select throws_ok(
  $$ insert into public.notification_preferences (user_id) values ('33333333-3333-4333-8333-333333333333') $$,
  '42501', null,
  'insert: Bob cannot create preferences for another id'
);
select throws_ok(
  $$ insert into public.notification_preferences (user_id, marketing_emails)
     values ('11111111-1111-4111-8111-111111111111', true)
     on conflict (user_id) do update set marketing_emails = excluded.marketing_emails $$,
  '42501', null,
  'insert: Bob cannot upsert over Alice''s preferences'
);

select is(
  pg_temp.row_count($$ update public.notification_preferences set marketing_emails = true
                       where user_id = '11111111-1111-4111-8111-111111111111' $$),
  0::bigint,
  'update: Bob changes nothing of Alice''s'
);
select is(
  pg_temp.row_count($$ update public.notification_preferences set persona_creation = false $$),
  1::bigint,
  'update: an unfiltered update reaches only Bob''s own row'
);
select is(
  pg_temp.row_count($$ update public.notification_preferences
                       set marketing_emails = true, narrative_generation = false, image_generation = false
                       where user_id = '22222222-2222-4222-8222-222222222222' $$),
  1::bigint,
  'update: Bob may toggle his own preferences'
);
select throws_ok(
  $$ update public.notification_preferences set user_id = '11111111-1111-4111-8111-111111111111'
     where user_id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table notification_preferences',
  'update: Bob cannot re-key his row onto Alice''s id'
);

select is(
  pg_temp.row_count($$ delete from public.notification_preferences
                       where user_id = '11111111-1111-4111-8111-111111111111' $$),
  0::bigint,
  'delete: Bob deletes nothing of Alice''s'
);
select throws_ok(
  $$ delete from public.notification_preferences where user_id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table notification_preferences',
  'delete: a user cannot delete even their own row (it lives and dies with the account)'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(
  pg_temp.row_count($$ select * from public.notification_preferences $$),
  0::bigint,
  'anon: select sees no row'
);
select throws_ok(
  $$ insert into public.notification_preferences (user_id) values ('33333333-3333-4333-8333-333333333333') $$,
  '42501', null,
  'anon: insert is rejected'
);
select is(
  pg_temp.row_count($$ update public.notification_preferences set marketing_emails = true $$),
  0::bigint,
  'anon: update changes nothing'
);
select is(
  pg_temp.row_count($$ delete from public.notification_preferences $$),
  0::bigint,
  'anon: delete removes nothing'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select results_eq(
  $$ select persona_creation, narrative_generation, image_generation, marketing_emails, updated_at
     from public.notification_preferences where user_id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values (true, true, true, false, '2000-01-01'::timestamptz) $$,
  'Alice''s preferences are untouched'
);
select results_eq(
  $$ select persona_creation, narrative_generation, image_generation, marketing_emails
     from public.notification_preferences where user_id = '22222222-2222-4222-8222-222222222222' $$,
  $$ values (false, false, false, true) $$,
  'Bob''s own toggles landed'
);
select is(
  (select updated_at from public.notification_preferences where user_id = '22222222-2222-4222-8222-222222222222'),
  now(),
  'the updated_at trigger stamped Bob''s edit'
);
select is(
  (select count(*) from public.notification_preferences),
  2::bigint,
  'no row was inserted or deleted'
);

-- Alice, too, is confined to her own row.
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select results_eq(
  $$ select user_id, marketing_emails from public.notification_preferences $$,
  $$ values ('11111111-1111-4111-8111-111111111111'::uuid, false) $$,
  'select: Alice sees exactly her own preferences'
);
reset role;
reset request.jwt.claims;

-- The row goes with the account.
delete from auth.users where id = '22222222-2222-4222-8222-222222222222';
select is_empty(
  $$ select user_id from public.notification_preferences where user_id = '22222222-2222-4222-8222-222222222222' $$,
  'deleting the auth user deletes their preferences'
);

select * from finish();
rollback;
