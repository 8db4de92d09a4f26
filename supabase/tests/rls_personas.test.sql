-- public.personas: a user sees and changes only their own personas; forging user_id on
-- insert or update is rejected; anon can neither read nor write.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(30);

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

-- Fixtures written as postgres (RLS does not apply); updated_at is backdated so the
-- updated_at trigger can be observed.
insert into public.personas (id, user_id, name, updated_at) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria', '2000-01-01'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bram', '2000-01-01'),
  ('b0000000-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222', 'Brook', '2000-01-01');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select set_eq(
  $$ select id from public.personas $$,
  $$ values ('b0000000-0000-4000-8000-000000000001'::uuid), ('b0000000-0000-4000-8000-000000000002'::uuid) $$,
  'select: Bob sees exactly his own personas'
);
select is_empty(
  $$ select id from public.personas where id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read Alice''s persona by id'
);
select is_empty(
  $$ select id from public.personas where user_id = '11111111-1111-4111-8111-111111111111' $$,
  'select: Bob cannot list Alice''s personas by user_id'
);

select lives_ok(
  $$ insert into public.personas (id, user_id, name)
     values ('b0000000-0000-4000-8000-000000000003', '22222222-2222-4222-8222-222222222222', 'Blaze') $$,
  'insert: Bob may create a persona for himself'
);
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', 'Forged') $$,
  '42501', 'new row violates row-level security policy for table "personas"',
  'insert: Bob cannot create a persona owned by Alice'
);
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('33333333-3333-4333-8333-333333333333', 'Forged') $$,
  '42501', 'new row violates row-level security policy for table "personas"',
  'insert: Bob cannot create a persona owned by some other id'
);

select is(
  pg_temp.row_count($$ update public.personas set name = 'Hijacked'
                       where id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob changes no persona of Alice''s'
);
select is(
  pg_temp.row_count($$ update public.personas set image_style = 'anime' $$),
  3::bigint,
  'update: an unfiltered update reaches only Bob''s three personas'
);
select is(
  pg_temp.row_count($$ update public.personas set name = 'Bram II', status = 'in_progress'
                       where id = 'b0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'update: Bob may edit his own persona'
);
select throws_ok(
  $$ update public.personas set user_id = '11111111-1111-4111-8111-111111111111'
     where id = 'b0000000-0000-4000-8000-000000000001' $$,
  '42501', 'new row violates row-level security policy for table "personas"',
  'update: Bob cannot hand his persona to Alice by rewriting user_id'
);
select throws_ok(
  $$ update public.personas set user_id = '11111111-1111-4111-8111-111111111111' $$,
  '42501', 'new row violates row-level security policy for table "personas"',
  'update: Bob cannot hand all his personas to Alice with an unfiltered update'
);

select is(
  pg_temp.row_count($$ delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'delete: Bob deletes no persona of Alice''s'
);
select is(
  pg_temp.row_count($$ delete from public.personas where id = 'b0000000-0000-4000-8000-000000000002' $$),
  1::bigint,
  'delete: Bob may delete his own persona'
);

-- ---------------------------------------------------------------- as Alice
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

select results_eq(
  $$ select id, name from public.personas $$,
  $$ values ('a0000000-0000-4000-8000-000000000001'::uuid, 'Aria'::text) $$,
  'select: Alice sees exactly her own persona, unchanged'
);
select is(
  pg_temp.row_count($$ delete from public.personas $$),
  1::bigint,
  'delete: an unfiltered delete by Alice reaches only her own persona'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(
  pg_temp.row_count($$ select * from public.personas $$),
  0::bigint,
  'anon: select sees no persona'
);
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', 'Anon') $$,
  '42501', null,
  'anon: insert is rejected'
);
select is(
  pg_temp.row_count($$ update public.personas set name = 'Anon' $$),
  0::bigint,
  'anon: update changes nothing'
);
select is(
  pg_temp.row_count($$ delete from public.personas $$),
  0::bigint,
  'anon: delete removes nothing'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select is_empty(
  $$ select id from public.personas where name in ('Forged', 'Hijacked', 'Anon') $$,
  'no forged, hijacked or anonymous persona exists'
);
select set_eq(
  $$ select id, user_id, name from public.personas $$,
  $$ values ('b0000000-0000-4000-8000-000000000001'::uuid, '22222222-2222-4222-8222-222222222222'::uuid, 'Bram II'::text),
            ('b0000000-0000-4000-8000-000000000003'::uuid, '22222222-2222-4222-8222-222222222222'::uuid, 'Blaze'::text) $$,
  'exactly Bob''s remaining personas exist, still his, with his edits'
);
select is(
  (select updated_at from public.personas where id = 'b0000000-0000-4000-8000-000000000001'),
  now(),
  'the updated_at trigger stamped Bob''s edit'
);

-- Alice's persona was deleted by Alice herself (above). Re-create it and check that a
-- deletion by Bob really leaves it in place, and that his own delete really removed Brook.
insert into public.personas (id, user_id, name) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria');
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';
select is(
  pg_temp.row_count($$ delete from public.personas $$),
  2::bigint,
  'delete: an unfiltered delete by Bob reaches only his own two personas'
);
reset role;
reset request.jwt.claims;
select results_eq(
  $$ select id, name from public.personas $$,
  $$ values ('a0000000-0000-4000-8000-000000000001'::uuid, 'Aria'::text) $$,
  'only Alice''s persona survives Bob''s unfiltered delete'
);

-- Schema constraints hold for the user too: a finished persona needs every required field.
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select throws_ok(
  $$ insert into public.personas (user_id, name, status)
     values ('11111111-1111-4111-8111-111111111111', 'Done', 'active') $$,
  '23514', null,
  'constraint: an active persona without its required fields is rejected'
);
select throws_ok(
  $$ insert into public.personas (user_id, name, interests)
     values ('11111111-1111-4111-8111-111111111111', 'Dup', '{art,art}') $$,
  '23514', null,
  'constraint: a duplicate interest is rejected'
);
select lives_ok(
  $$ insert into public.personas (user_id, name, status, type, gender, age_range, interests, description, personality)
     values ('11111111-1111-4111-8111-111111111111', 'Nova', 'active', 'vtuber', 'female', '18-24',
             '{gaming,music}', 'A cheerful streamer.', '{Outgoing,Creative}') $$,
  'constraint: a complete active persona is accepted'
);
reset role;
reset request.jwt.claims;

-- A name is 2 characters, or 1 of a script that writes a name in one (docs/product.md, Personas).
select lives_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', '爱'),
     ('11111111-1111-4111-8111-111111111111', ' 한 '), ('11111111-1111-4111-8111-111111111111', '𠀋') $$,
  'a name of one Chinese, Korean or rare Han character is stored');
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', 'A') $$,
  '23514', null, 'a name of one Latin letter is refused');
select throws_ok(
  $$ insert into public.personas (user_id, name) values ('11111111-1111-4111-8111-111111111111', '👋') $$,
  '23514', null, 'a name of one emoji is refused');

select * from finish();
rollback;
