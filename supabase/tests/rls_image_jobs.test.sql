-- public.image_jobs: one reference image generation per persona. A user sees, starts, finishes
-- and clears only jobs of their own personas; nobody starts a job on someone else's persona or
-- for someone else; anon sees and does nothing; nobody starts one without the app (its quota).
-- Deleting the persona deletes its job.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(14);
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
insert into public.image_jobs (persona_id, user_id, style, status, deadline) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'anime', 'generating', now() + interval '2 minutes');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.image_jobs $$), 0::bigint, 'select: Bob sees none of Alice''s jobs');
select lives_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'minimalist', now() + interval '2 minutes') $$,
  'insert: Bob starts a job on his own persona'
);
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'anime', now() + interval '2 minutes') $$,
  '23505', null,
  'insert: one job per persona (a second one is refused)'
);
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111', 'anime', now() + interval '2 minutes') $$,
  '42501', null,
  'insert: Bob cannot start a job in Alice''s name'
);
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('a0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'anime', now() + interval '2 minutes') $$,
  '42501', null,
  'insert: Bob cannot start a job on Alice''s persona'
);
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'watercolour', now() + interval '2 minutes') $$,
  '23514', null,
  'insert: only the five image styles'
);
select throws_ok(
  $$ update public.image_jobs set persona_id = 'a0000000-0000-4000-8000-000000000002'
     where persona_id = 'b0000000-0000-4000-8000-000000000001' $$,
  '42501', null,
  'update: Bob cannot move his job onto Alice''s persona'
);
select is(
  pg_temp.row_count($$ update public.image_jobs set status = 'failed' where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob cannot touch Alice''s job'
);
select is(
  pg_temp.row_count($$ delete from public.image_jobs where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'delete: Bob cannot clear Alice''s job'
);
select is(
  pg_temp.row_count($$ update public.image_jobs set status = 'failed', error = 'x' where persona_id = 'b0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'update: Bob marks his own job failed'
);

-- ---------------------------------------------------------------- straight through the API
-- Without the app's door (its quota), a generation cannot be started: nothing is queued.
select set_config('personaforge.door', '', true);
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'anime', now() + interval '2 minutes') $$,
  '42501', 'Reference images are generated through the app: POST /api/personas/{id}/generate-images',
  'API: Bob cannot start a generation on his own persona without the app'
);
select set_config('personaforge.door', 'app', true);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from public.image_jobs $$), 0::bigint, 'anon: select sees no job');
select throws_ok(
  $$ insert into public.image_jobs (persona_id, user_id, style, deadline)
     values ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'anime', now()) $$,
  '42501', null,
  'anon: insert is rejected'
);

-- ---------------------------------------------------------------- cascade
reset role;
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
select is(
  (select count(*) from public.image_jobs where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  0::bigint,
  'deleting a persona deletes its job'
);

select * from finish();
rollback;
