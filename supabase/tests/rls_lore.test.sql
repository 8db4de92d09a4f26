-- public.personas.lore (a persona's lorebook) and chat_messages.lore: the owner reads and
-- writes their persona's lorebook; nobody else reads it, writes it, or slips one into a
-- version; anon sees nothing. A change of the lorebook is a version in history that holds it.
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
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());

insert into public.personas (id, user_id, name, lore) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria',
   '{"entries":[{"id":"e1","name":"Mina","keys":["Mina","sister"],"content":"Aria''s sister Mina is a nurse in Busan."}],"book":{}}');
insert into public.chat_messages (persona_id, role, content, lore) values
  ('a0000000-0000-4000-8000-000000000001', 'assistant', 'My sister Mina is a nurse.', '[{"id":"e1","name":"Mina"}]');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select is_empty(
  $$ select lore from public.personas where id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read Alice''s lorebook'
);
select is_empty(
  $$ select lore from public.chat_messages where lore is not null $$,
  'select: Bob cannot read which lore Alice''s replies used'
);
select is_empty(
  $$ select lore from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read the lorebook in Alice''s history'
);
select is_empty(
  $$ select entry from public.persona_lore_entries where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read the entries Alice''s history keeps'
);
select is_empty(
  $$ select public.persona_version_lore(v.persona_id, v.lore, v.lore_entries) from public.persona_versions v $$,
  'select: Bob cannot put Alice''s lorebook together from her history'
);
select throws_ok(
  $$ insert into public.persona_lore_entries (persona_id, user_id, digest, entry)
     values ('a0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', decode(md5('x'), 'hex'), '{}') $$,
  '42501', null,
  'insert: Bob cannot slip an entry into Alice''s history'
);
select is(
  pg_temp.row_count($$ update public.personas set lore = '{"entries":[]}' where id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob cannot empty Alice''s lorebook'
);
select is(
  pg_temp.row_count($$ update public.personas set lore = jsonb_set(lore, '{book}', '{"name":"pwned"}') $$),
  0::bigint,
  'update: an unfiltered update of lore by Bob reaches nothing of Alice''s'
);
select throws_ok(
  $$ insert into public.persona_versions (persona_id, user_id, version, kind, name, interests, personality,
       backstory_version, narrative_version, image_style, status, lore)
     values ('a0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 9, 'edited', 'X', '{}', '{}',
       9, 9, 'anime', 'active', '{"entries":[]}') $$,
  '42501', null,
  'insert: Bob cannot write a version with a lorebook'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(
  pg_temp.row_count($$ select lore from public.personas $$),
  0::bigint,
  'anon: no lorebook is visible'
);

-- ---------------------------------------------------------------- as Alice
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

select is(
  (select lore->'entries'->0->>'name' from public.personas where id = 'a0000000-0000-4000-8000-000000000001'),
  'Mina',
  'select: Alice reads her own lorebook'
);
select is(
  pg_temp.row_count($$ update public.personas set lore = '{"entries":[{"id":"e1","name":"Mina","keys":["Mina"],"content":"A nurse."}],"book":{}}'
                       where id = 'a0000000-0000-4000-8000-000000000001' $$),
  1::bigint,
  'update: Alice edits her lorebook'
);
select is(
  (select count(*) from public.persona_versions where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  2::bigint,
  'history: the lorebook edit is a version of its own'
);
select is(
  (select public.persona_version_lore(persona_id, lore, lore_entries)->'entries'->0->>'content' from public.persona_versions
     where persona_id = 'a0000000-0000-4000-8000-000000000001' order by version desc limit 1),
  'A nurse.',
  'history: the version holds the lorebook as edited'
);
select is(
  (select count(*) from public.persona_lore_entries where persona_id = 'a0000000-0000-4000-8000-000000000001'),
  2::bigint,
  'history: each distinct entry is stored once, for the versions to reference'
);
select is(
  pg_temp.row_count($$ update public.persona_lore_entries set entry = '{}' $$),
  0::bigint,
  'update: nobody rewrites an entry history keeps, not even its owner'
);
select throws_ok(
  $$ update public.personas set lore = '[]' where id = 'a0000000-0000-4000-8000-000000000001' $$,
  '23514', null,
  'check: a lorebook is an object'
);
select throws_ok(
  $$ update public.personas set lore = jsonb_build_object('entries', jsonb_build_array(repeat('x', 2200000)))
     where id = 'a0000000-0000-4000-8000-000000000001' $$,
  '23514', null,
  'check: a lorebook is at most 2 MB'
);
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content, lore)
     values ('a0000000-0000-4000-8000-000000000001', 'assistant', 'Hi', '"Mina"') $$,
  '23514', null,
  'check: a reply''s lore is a list'
);

select * from finish();
rollback;
