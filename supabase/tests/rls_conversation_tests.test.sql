-- public.conversation_tests (long-conversation tests): a user sees, records, changes
-- and deletes only runs of their own personas; nobody records a run on someone else's persona or
-- in someone else's name; one queued run a persona; nobody queues one without the app (its
-- quota), and a run queued through it is a job on conversation-tests; anon sees and does nothing.
-- Deleting the persona deletes its runs.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(16);
-- The app's doors mark their transactions; a client of Supabase's API cannot (job_queue migration).
select set_config('personaforge.door', 'app', true);

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
   '{"first_name":"Alice"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob"}', '{"provider":"email"}', now());
insert into public.personas (id, user_id, name, type, gender, age_range, interests, description, status) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Alice One', 'educator', 'female', '25-34', '{science}', 'A', 'active'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bob One', 'artist', 'male', '25-34', '{art}', 'B', 'active');
insert into public.conversation_tests (id, persona_id, user_id, version, status, turns, seed) values
  ('d0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 'queued', 24, 7);

select ok(
  exists (select 1 from pgboss.job where name = 'conversation-tests' and data ->> 'runId' = 'd0000000-0000-4000-8000-000000000001'),
  'a queued run is a job on conversation-tests from the moment its row exists'
);

-- ---------------------------------------------------------------- as Alice
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.conversation_tests $$), 1::bigint, 'Alice sees her own run');
select is(
  pg_temp.row_count($$ update public.conversation_tests set transcript = '[]' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'Alice changes her own run'
);
select throws_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 24, 7) $$,
  '23505', null,
  'one queued run a persona'
);

-- ---------------------------------------------------------------- as Bob
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.conversation_tests $$), 0::bigint, 'Bob sees none of Alice''s runs');
select is(
  pg_temp.row_count($$ update public.conversation_tests set status = 'failed' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'Bob cannot change Alice''s run'
);
select is(
  pg_temp.row_count($$ delete from public.conversation_tests where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'Bob cannot delete Alice''s run'
);
select throws_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('a0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 24, 7) $$,
  '42501', null,
  'Bob cannot record a run of Alice''s persona'
);
select throws_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('b0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 24, 7) $$,
  '42501', null,
  'Bob cannot record a run in Alice''s name'
);
select set_config('personaforge.door', '', true);
select throws_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 24, 7) $$,
  '42501', 'A long-conversation test is started through the app: POST /api/personas/{id}/conversation-tests',
  'without the app (its quota) Bob cannot queue a run of his own persona'
);
select set_config('personaforge.door', 'app', true);
select lives_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 24, 7) $$,
  'Bob queues a run of his own persona through the app'
);

-- ---------------------------------------------------------------- anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from public.conversation_tests $$), 0::bigint, 'anon sees no run');
select throws_ok(
  $$ insert into public.conversation_tests (persona_id, user_id, version, turns, seed) values ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 24, 7) $$,
  '42501', null,
  'anon cannot record a run'
);
select is(pg_temp.row_count($$ update public.conversation_tests set status = 'failed' $$), 0::bigint, 'anon cannot change a run');

-- ---------------------------------------------------------------- cascade
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
reset role;
select is(
  (select count(*) from public.conversation_tests where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  0::bigint,
  'deleting a persona deletes its runs'
);
select is((select count(*) from public.conversation_tests), 1::bigint, '... and nobody else''s');

select * from finish();
rollback;
