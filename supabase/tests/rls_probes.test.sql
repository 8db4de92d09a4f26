-- public.persona_probes and public.probe_runs (persona tests): a user sees, adds, changes and
-- deletes only probes of their own personas, and sees and records only runs of their own; nobody
-- moves a run onto someone else's persona; anon sees and does nothing. A new version of a persona
-- with enabled probes queues one run (the next version moves it on), none without probes or with
-- only disabled ones; one running run a persona. Deleting the persona deletes its probes and runs.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(19);

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
  ('a0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111', 'Alice Two', 'educator', 'female', '25-34', '{science}', 'A', 'active'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bob One', 'artist', 'male', '25-34', '{art}', 'B', 'active'),
  ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'Bob Two', 'artist', 'male', '25-34', '{art}', 'B', 'active');
insert into public.persona_probes (id, persona_id, position, probe) values
  ('c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 0, '{"name":"Greets","turns":["Hi"],"inCharacter":true}');
insert into public.probe_runs (id, persona_id, user_id, version, trigger, status) values
  ('d0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 'manual', 'completed');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.persona_probes $$), 0::bigint, 'probes: Bob sees none of Alice''s');
select is(pg_temp.row_count($$ select * from public.probe_runs $$), 0::bigint, 'runs: Bob sees none of Alice''s');
select lives_ok(
  $$ insert into public.persona_probes (persona_id, probe) values ('b0000000-0000-4000-8000-000000000001', '{"name":"Mine","turns":["Hi"]}') $$,
  'probes: Bob adds one to his own persona'
);
select throws_ok(
  $$ insert into public.persona_probes (persona_id, probe) values ('a0000000-0000-4000-8000-000000000001', '{"name":"Theirs","turns":["Hi"]}') $$,
  '42501', null,
  'probes: Bob cannot add one to Alice''s persona'
);
select is(
  pg_temp.row_count($$ update public.persona_probes set probe = '{"name":"Hijacked"}' where id = 'c0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'probes: Bob cannot change Alice''s'
);
select is(
  pg_temp.row_count($$ delete from public.persona_probes where id = 'c0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'probes: Bob cannot delete Alice''s'
);
select throws_ok(
  $$ update public.persona_probes set persona_id = 'a0000000-0000-4000-8000-000000000002' where persona_id = 'b0000000-0000-4000-8000-000000000001' $$,
  '42501', null,
  'probes: Bob cannot move his probe onto Alice''s persona'
);
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger) values ('a0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 'manual') $$,
  '42501', null,
  'runs: Bob cannot record a run of Alice''s persona'
);
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger) values ('b0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 'manual') $$,
  '42501', null,
  'runs: Bob cannot record a run in Alice''s name'
);
select lives_ok(
  $$ insert into public.probe_runs (id, persona_id, user_id, version, trigger, status)
     values ('d0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 'manual', 'running') $$,
  'runs: Bob records a run of his own persona'
);
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger, status)
     values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 1, 'manual', 'running') $$,
  '23505', null,
  'runs: one running run a persona'
);
select throws_ok(
  $$ update public.probe_runs set persona_id = 'a0000000-0000-4000-8000-000000000002' where id = 'd0000000-0000-4000-8000-000000000002' $$,
  '42501', null,
  'runs: Bob cannot move his run onto Alice''s persona'
);
select is(
  pg_temp.row_count($$ update public.probe_runs set status = 'failed' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'runs: Bob cannot touch Alice''s run'
);

-- A new version of Bob's persona: his probe queues a run; a second version moves it on; Bob Two has none.
update public.personas set description = 'B, edited' where id = 'b0000000-0000-4000-8000-000000000001';
update public.personas set description = 'B, edited again' where id = 'b0000000-0000-4000-8000-000000000001';
update public.personas set description = 'B2, edited' where id = 'b0000000-0000-4000-8000-000000000002';
select results_eq(
  $$ select persona_id::text, trigger, version from public.probe_runs where status = 'queued' order by persona_id $$,
  $$ values ('b0000000-0000-4000-8000-000000000001', 'version', 3) $$,
  'versions: one queued run, of the newest version, only for the persona with probes'
);
update public.persona_probes set probe = '{"name":"Mine","turns":["Hi"],"enabled":false}' where persona_id = 'b0000000-0000-4000-8000-000000000001';
delete from public.probe_runs where status = 'queued';
update public.personas set description = 'B, edited a third time' where id = 'b0000000-0000-4000-8000-000000000001';
select is(
  (select count(*) from public.probe_runs where status = 'queued'),
  0::bigint,
  'versions: only disabled probes queue nothing'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from public.persona_probes $$), 0::bigint, 'anon: sees no probe');
select is(pg_temp.row_count($$ select * from public.probe_runs $$), 0::bigint, 'anon: sees no run');
select throws_ok(
  $$ insert into public.persona_probes (persona_id, probe) values ('b0000000-0000-4000-8000-000000000002', '{}') $$,
  '42501', null,
  'anon: cannot add a probe'
);

-- ---------------------------------------------------------------- cascade
reset role;
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
select is(
  (select count(*) from public.persona_probes where persona_id = 'a0000000-0000-4000-8000-000000000001')
    + (select count(*) from public.probe_runs where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  0::bigint,
  'deleting a persona deletes its probes and runs'
);

select * from finish();
rollback;
