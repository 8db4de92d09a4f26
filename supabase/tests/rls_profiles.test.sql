-- public.profiles: a user reads only their own profile and changes only their own
-- name and picture; nobody forges, deletes or reads another user's profile; anon sees nothing.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(22);

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

-- Alice (A) and Bob (B) sign up; the trigger on auth.users creates their profiles.
insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select results_eq(
  $$ select id from public.profiles $$,
  $$ values ('22222222-2222-4222-8222-222222222222'::uuid) $$,
  'select: Bob sees exactly his own profile'
);
select is_empty(
  $$ select id from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  'select: Bob cannot read Alice''s profile by id'
);
select is(
  pg_temp.row_count($$ update public.profiles set first_name = 'Mallory'
                       where id = '11111111-1111-4111-8111-111111111111' $$),
  0::bigint,
  'update: Bob changes no row of Alice''s profile'
);
select is(
  pg_temp.row_count($$ update public.profiles set first_name = 'Mallory' $$),
  1::bigint,
  'update: an unfiltered update reaches only Bob''s own row'
);
select is(
  pg_temp.row_count($$ update public.profiles set first_name = 'Bobby', last_name = 'Baker',
                         profile_image_url = 'https://example.test/bob.png'
                       where id = '22222222-2222-4222-8222-222222222222' $$),
  1::bigint,
  'update: Bob may change his own name and picture'
);
select throws_ok(
  $$ update public.profiles set subscription_status = 'active'
     where id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table profiles',
  'update: Bob cannot change his own subscription_status'
);
select throws_ok(
  $$ update public.profiles set personas_created = 0
     where id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table profiles',
  'update: Bob cannot change his own personas_created'
);
select throws_ok(
  $$ update public.profiles set stripe_customer_id = 'cus_forged', stripe_subscription_id = 'sub_forged'
     where id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table profiles',
  'update: Bob cannot change his own billing ids'
);
select throws_ok(
  $$ update public.profiles set id = '11111111-1111-4111-8111-111111111111'
     where id = '22222222-2222-4222-8222-222222222222' $$,
  '42501', 'permission denied for table profiles',
  'update: Bob cannot re-key his profile onto Alice''s id'
);
select throws_ok(
  $$ insert into public.profiles (id, first_name) values ('33333333-3333-4333-8333-333333333333', 'Forged') $$,
  '42501', 'permission denied for table profiles',
  'insert: Bob cannot insert a profile for another id'
);
select throws_ok(
  $$ insert into public.profiles (id, first_name) values ('11111111-1111-4111-8111-111111111111', 'Forged') $$,
  '42501', 'permission denied for table profiles',
  'insert: Bob cannot insert a profile with Alice''s id'
);
select is(
  pg_temp.row_count($$ delete from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$),
  0::bigint,
  'delete: Bob deletes nothing of Alice''s'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(
  pg_temp.row_count($$ select * from public.profiles $$),
  0::bigint,
  'anon: select sees no profile'
);
select throws_ok(
  $$ insert into public.profiles (id) values ('33333333-3333-4333-8333-333333333333') $$,
  '42501', null,
  'anon: insert is rejected'
);
select is(
  pg_temp.row_count($$ update public.profiles set first_name = 'Anon' $$),
  0::bigint,
  'anon: update changes nothing'
);
select is(
  pg_temp.row_count($$ delete from public.profiles $$),
  0::bigint,
  'anon: delete removes nothing'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select results_eq(
  $$ select first_name, last_name, profile_image_url from public.profiles
     where id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values ('Alice'::text, 'Archer'::text, null::text) $$,
  'Alice''s profile is untouched'
);
select results_eq(
  $$ select first_name, last_name, profile_image_url, subscription_status, personas_created,
            stripe_customer_id, stripe_subscription_id
     from public.profiles where id = '22222222-2222-4222-8222-222222222222' $$,
  $$ values ('Bobby'::text, 'Baker'::text, 'https://example.test/bob.png'::text, 'free'::text, 0,
             null::text, null::text) $$,
  'Bob''s own edit landed; his plan, counter and billing ids did not change'
);
select is(
  (select count(*) from public.profiles),
  2::bigint,
  'no profile was inserted or deleted'
);

-- Alice, too, is confined to her own row.
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select results_eq(
  $$ select id, first_name from public.profiles $$,
  $$ values ('11111111-1111-4111-8111-111111111111'::uuid, 'Alice'::text) $$,
  'select: Alice sees exactly her own profile'
);
select throws_ok(
  $$ delete from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', 'permission denied for table profiles',
  'delete: a user cannot delete even their own profile (privileged code only)'
);
reset role;
reset request.jwt.claims;
select is(
  (select count(*) from public.profiles where id = '11111111-1111-4111-8111-111111111111'),
  1::bigint,
  'Alice''s profile still exists'
);

select * from finish();
rollback;
