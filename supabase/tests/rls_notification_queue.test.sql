-- public.notification_queue: what waits for a creator's notification digest. A creator reads
-- only their own rows; nobody but the server (service_role) writes, changes or deletes a row,
-- not even for their own persona (a row names the address the digest goes to); anon sees and
-- does nothing. A row goes with its persona and with its account.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(14);

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
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bob One', 'artist', 'male', '25-34', '{art}', 'B', 'active');
-- As the server writes them (service_role).
set local role service_role;
insert into public.notification_queue (user_id, persona_id, email, kind) values
  ('11111111-1111-4111-8111-111111111111', 'a0000000-0000-4000-8000-000000000001', 'alice@example.test', 'persona_created'),
  ('11111111-1111-4111-8111-111111111111', 'a0000000-0000-4000-8000-000000000002', 'alice@example.test', 'images_ready'),
  ('22222222-2222-4222-8222-222222222222', 'b0000000-0000-4000-8000-000000000001', 'bob@example.test', 'backstory_generated');
reset role;

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select is(pg_temp.row_count($$ select * from public.notification_queue $$), 1::bigint, 'select: Bob sees his own row only');
select is(
  (select count(*) from public.notification_queue where user_id = '11111111-1111-4111-8111-111111111111'),
  0::bigint,
  'select: Bob sees none of Alice''s rows, even asking for them'
);
select throws_ok(
  $$ insert into public.notification_queue (user_id, persona_id, email, kind)
     values ('22222222-2222-4222-8222-222222222222', 'b0000000-0000-4000-8000-000000000001', 'victim@example.test', 'persona_created') $$,
  '42501', null,
  'insert: Bob cannot queue mail, not even for his own persona (to any address)'
);
select throws_ok(
  $$ insert into public.notification_queue (user_id, persona_id, email, kind)
     values ('11111111-1111-4111-8111-111111111111', 'a0000000-0000-4000-8000-000000000001', 'alice@example.test', 'persona_created') $$,
  '42501', null,
  'insert: Bob cannot queue a notification in Alice''s name'
);
select is(
  pg_temp.row_count($$ update public.notification_queue set email = 'bob@example.test' $$),
  0::bigint,
  'update: Bob cannot redirect any row (not even his own)'
);
select is(
  pg_temp.row_count($$ delete from public.notification_queue $$),
  0::bigint,
  'delete: Bob cannot remove any row (not even his own)'
);

-- ---------------------------------------------------------------- as Alice
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select set_eq(
  $$ select persona_id::text from public.notification_queue $$,
  array['a0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002'],
  'select: Alice sees her two rows'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from public.notification_queue $$), 0::bigint, 'anon: select sees no row');
select throws_ok(
  $$ insert into public.notification_queue (user_id, persona_id, email, kind)
     values ('22222222-2222-4222-8222-222222222222', 'b0000000-0000-4000-8000-000000000001', 'x@example.test', 'persona_created') $$,
  '42501', null,
  'anon: insert is rejected'
);

-- ---------------------------------------------------------------- checks, cascades (as the server)
reset role;
select throws_ok(
  $$ insert into public.notification_queue (user_id, persona_id, email, kind)
     values ('22222222-2222-4222-8222-222222222222', 'b0000000-0000-4000-8000-000000000001', 'bob@example.test', 'marketing') $$,
  '23514', null,
  'only the four kinds of event (nothing sends marketing)'
);
select throws_ok(
  $$ insert into public.notification_queue (user_id, persona_id, email, kind)
     values ('22222222-2222-4222-8222-222222222222', 'c0000000-0000-4000-8000-000000000009', 'bob@example.test', 'persona_created') $$,
  '23503', null,
  'a row names an existing persona'
);
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
select is(
  (select count(*) from public.notification_queue where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  0::bigint,
  'deleting a persona deletes its queued notifications'
);
delete from auth.users where id = '11111111-1111-4111-8111-111111111111';
select is(
  (select count(*) from public.notification_queue where user_id = '11111111-1111-4111-8111-111111111111'),
  0::bigint,
  'deleting an account deletes its queued notifications'
);
select is(
  (select count(*) from public.notification_queue),
  1::bigint,
  'Bob''s row is untouched by all of it'
);

select * from finish();
rollback;
