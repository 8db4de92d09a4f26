-- The Free plan's persona limit (trigger enforce_persona_limit) answers only to the persona's
-- owner: a signed-in user naming someone else's user_id gets the row-level security error,
-- learns nothing about their plan or count, and changes none of their counters.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(5);

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());

-- Alice is on the Free plan and already owns 10 personas.
insert into public.personas (user_id, name)
select '11111111-1111-4111-8111-111111111111', 'Alice ' || n from generate_series(1, 10) as n;

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', 'Forged') $$,
  '42501', 'new row violates row-level security policy for table "personas"',
  'Bob naming Alice gets the row-level security error, not her plan''s limit'
);
select lives_ok(
  $$ insert into public.personas (user_id, name) values ('22222222-2222-4222-8222-222222222222', 'Bram') $$,
  'Bob still creates his own persona'
);
reset role;
reset request.jwt.claims;

select is(
  (select personas_created from public.profiles where id = '11111111-1111-4111-8111-111111111111'),
  10,
  'Alice''s creation counter is untouched by Bob''s attempt'
);
select is(
  (select count(*)::int from public.personas where user_id = '11111111-1111-4111-8111-111111111111'),
  10,
  'Alice still owns exactly her 10 personas'
);

-- ---------------------------------------------------------------- as Alice
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', 'Eleventh') $$,
  'P0001', 'Free Plan Limit Reached',
  'Alice herself still meets the Free plan''s limit'
);
reset role;
reset request.jwt.claims;

select * from finish();
rollback;
