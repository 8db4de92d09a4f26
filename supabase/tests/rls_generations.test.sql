-- public.generations: the log behind the dashboard's 'Generated Content'. A user reads and
-- adds only their own rows; nobody forges, rewrites or deletes one; anon sees nothing.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(11);

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
insert into public.generations (id, user_id, kind) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'backstory'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'chat');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select results_eq(
  $$ select id from public.generations $$,
  $$ values ('b0000000-0000-4000-8000-000000000001'::uuid) $$,
  'select: Bob sees exactly his own generations'
);
select lives_ok(
  $$ insert into public.generations (user_id, kind) values ('22222222-2222-4222-8222-222222222222', 'image') $$,
  'insert: Bob records his own generation'
);
select throws_ok(
  $$ insert into public.generations (user_id, kind) values ('11111111-1111-4111-8111-111111111111', 'image') $$,
  '42501', null,
  'insert: Bob cannot record a generation for Alice'
);
select throws_ok(
  $$ insert into public.generations (user_id, kind) values ('22222222-2222-4222-8222-222222222222', 'novel') $$,
  '23514', null,
  'insert: only backstory, chat and image are generations'
);
select is(
  pg_temp.row_count($$ update public.generations set kind = 'image' $$),
  0::bigint,
  'update: not even Bob''s own history can be rewritten'
);
select is(
  pg_temp.row_count($$ delete from public.generations $$),
  0::bigint,
  'delete: not even Bob''s own history can be removed'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(pg_temp.row_count($$ select * from public.generations $$), 0::bigint, 'anon: select sees no row');
select throws_ok(
  $$ insert into public.generations (user_id, kind) values ('11111111-1111-4111-8111-111111111111', 'chat') $$,
  '42501', null,
  'anon: insert is rejected'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select is(
  (select count(*) from public.generations where user_id = '11111111-1111-4111-8111-111111111111'),
  1::bigint,
  'Alice''s history is untouched'
);
select is(
  (select count(*) from public.generations where user_id = '22222222-2222-4222-8222-222222222222'),
  2::bigint,
  'Bob''s history holds his two generations'
);
delete from auth.users where id = '22222222-2222-4222-8222-222222222222';
select is_empty(
  $$ select id from public.generations where user_id = '22222222-2222-4222-8222-222222222222' $$,
  'deleting an account removes its generations'
);

select * from finish();
rollback;
