-- public.persona_probes and public.probe_runs (persona tests): a user sees, adds, changes and
-- deletes only probes of their own personas, and sees, records, changes and deletes only runs of
-- their own; nobody moves a probe or a run onto someone else's persona, takes someone else's, or
-- bumps someone else's queued run through insert … on conflict; anon sees and does nothing.
-- A new version of a persona with enabled probes queues one run of it for the persona's owner (the
-- next version moves that run on instead of adding one; a running run does not stop it), none
-- without probes or with only disabled ones; a malformed probe never fails the version's write.
-- One queued and one running run a persona; nobody queues one without the app (its quota).
-- Deleting the persona deletes its probes and runs.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(40);
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
  ('a0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111', 'Alice Two', 'educator', 'female', '25-34', '{science}', 'A', 'active'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bob One', 'artist', 'male', '25-34', '{art}', 'B', 'active'),
  ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'Bob Two', 'artist', 'male', '25-34', '{art}', 'B', 'active');
insert into public.persona_probes (id, persona_id, position, probe) values
  ('c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 0, '{"name":"Greets","turns":["Hi"],"inCharacter":true}'),
  ('c0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000002', 0, '{"name":"Off","turns":["Hi"],"enabled":false}');
insert into public.probe_runs (id, persona_id, user_id, version, trigger, status) values
  ('d0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 1, 'manual', 'completed');

-- ---------------------------------------------------------------- as Alice (the owner: the policies let her in)
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.persona_probes $$), 2::bigint, 'probes: Alice sees her own');
select is(pg_temp.row_count($$ select * from public.probe_runs $$), 1::bigint, 'runs: Alice sees her own');
select is(
  pg_temp.row_count($$ update public.persona_probes set position = 1 where id = 'c0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'probes: Alice changes her own'
);
select is(
  pg_temp.row_count($$ update public.probe_runs set results = '[]' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'runs: Alice changes her own'
);

-- ---------------------------------------------------------------- as Bob
reset role;
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
  pg_temp.row_count($$ update public.persona_probes set persona_id = 'b0000000-0000-4000-8000-000000000001' where id = 'c0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'probes: Bob cannot take Alice''s onto his persona'
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
select set_config('personaforge.door', '', true);
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger) values ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 1, 'manual') $$,
  '42501', 'A test run is started through the app: POST /api/personas/{id}/probes/run',
  'runs: without the app (its quota) Bob cannot queue a run of his own persona'
);
select set_config('personaforge.door', 'app', true);
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
select throws_ok(
  $$ update public.probe_runs set user_id = '11111111-1111-4111-8111-111111111111' where id = 'd0000000-0000-4000-8000-000000000002' $$,
  '42501', null,
  'runs: Bob cannot hand his run to Alice'
);
select is(
  pg_temp.row_count($$ update public.probe_runs set status = 'failed' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'runs: Bob cannot touch Alice''s run'
);
select is(
  pg_temp.row_count($$ update public.probe_runs set user_id = '22222222-2222-4222-8222-222222222222' where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'runs: Bob cannot take Alice''s run'
);
select is(
  pg_temp.row_count($$ delete from public.probe_runs where id = 'd0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'runs: Bob cannot delete Alice''s run'
);

-- ---------------------------------------------------------------- a new version queues a run
-- Bob One has an enabled probe (and a running run), Bob Two none; Alice One an enabled probe,
-- Alice Two only a disabled one.
update public.personas set description = 'B, edited' where id = 'b0000000-0000-4000-8000-000000000001';
do $$ begin perform set_config('pf.first_queued', (select id::text from public.probe_runs where status = 'queued'), true); end $$;
update public.personas set description = 'B, edited again' where id = 'b0000000-0000-4000-8000-000000000001';
update public.personas set description = 'B2, edited' where id = 'b0000000-0000-4000-8000-000000000002';

reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
update public.personas set description = 'A, edited' where id = 'a0000000-0000-4000-8000-000000000001';
update public.personas set description = 'A2, edited' where id = 'a0000000-0000-4000-8000-000000000002';
select results_eq(
  $$ select persona_id::text, trigger, version from public.probe_runs where status = 'queued' $$,
  $$ values ('a0000000-0000-4000-8000-000000000001', 'version', 2) $$,
  'versions: Alice sees the run her edit queued, not Bob''s'
);
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger, status)
     values ('b0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 9, 'manual', 'queued')
     on conflict (persona_id) where status = 'queued' do update set version = 9 $$,
  '42501', null,
  'runs: Alice cannot bump Bob''s queued run through insert … on conflict'
);

reset role;
select results_eq(
  $$ select persona_id::text, user_id::text, trigger, version from public.probe_runs where status = 'queued' order by persona_id $$,
  $$ values ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'version', 2),
            ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'version', 3) $$,
  'versions: one queued run of the newest version for each persona with enabled probes, in its owner''s name; none without probes or with only disabled ones'
);
select is(
  (select id::text from public.probe_runs where status = 'queued' and persona_id = 'b0000000-0000-4000-8000-000000000001'),
  current_setting('pf.first_queued'),
  'versions: the second version moved the queued run on instead of adding one'
);
select is(
  (select count(*) from public.probe_runs where persona_id = 'b0000000-0000-4000-8000-000000000001'),
  2::bigint,
  'versions: Bob One holds his running run and the one queued run, nothing else'
);

set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger, status)
     values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 3, 'manual', 'queued') $$,
  '23505', null,
  'runs: one queued run a persona'
);
update public.persona_probes set probe = '{"name":"Mine","turns":["Hi"],"enabled":false}' where persona_id = 'b0000000-0000-4000-8000-000000000001';
delete from public.probe_runs where status = 'queued';
update public.personas set description = 'B, edited a third time' where id = 'b0000000-0000-4000-8000-000000000001';
select is(
  (select count(*) from public.probe_runs where status = 'queued'),
  0::bigint,
  'versions: once its probes are turned off, a new version queues nothing'
);
update public.persona_probes set probe = '{"name":"Mine","turns":["Hi"],"enabled":"maybe"}' where persona_id = 'b0000000-0000-4000-8000-000000000001';
select lives_ok(
  $$ update public.personas set description = 'B, edited a fourth time' where id = 'b0000000-0000-4000-8000-000000000001' $$,
  'versions: a probe whose enabled is not a boolean does not fail the edit'
);
select throws_ok(
  $$ insert into public.persona_probes (persona_id, probe) values ('b0000000-0000-4000-8000-000000000002', '["Hi"]') $$,
  '23514', null,
  'check: a probe is an object'
);
select throws_ok(
  $$ update public.probe_runs set total = 1, passed = 1, failed = 1 where id = 'd0000000-0000-4000-8000-000000000002' $$,
  '23514', null,
  'check: a run''s passed and failed add up to at most its total'
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
select throws_ok(
  $$ insert into public.probe_runs (persona_id, user_id, version, trigger)
     values ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 1, 'manual') $$,
  '42501', null,
  'anon: cannot record a run'
);
select throws_ok(
  $$ update public.probe_runs set status = 'failed' $$,
  '42501', null,
  'anon: cannot change a run'
);
select throws_ok(
  $$ delete from public.persona_probes $$,
  '42501', null,
  'anon: cannot delete a probe'
);

-- ---------------------------------------------------------------- cascade
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
reset role;
select is(
  (select count(*) from public.persona_probes where persona_id = 'a0000000-0000-4000-8000-000000000001')
    + (select count(*) from public.probe_runs where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  0::bigint,
  'deleting a persona deletes its probes and runs'
);
select ok(
  (select count(*) from public.persona_probes where persona_id <> 'a0000000-0000-4000-8000-000000000001') = 2
    and exists (select 1 from public.probe_runs where id = 'd0000000-0000-4000-8000-000000000002'),
  '... and nobody else''s'
);

select * from finish();
rollback;
