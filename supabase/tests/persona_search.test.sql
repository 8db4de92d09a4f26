-- search.persona_ids_matching: the library's search through the trigram indexes. It answers
-- only with the caller's own personas (the JWT's sub, never a parameter), anon may not call
-- it, and its schema holds nothing else; `private` stays closed to anon and authenticated.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(12);

select has_function('search', 'persona_ids_matching', array['text'], 'search.persona_ids_matching(text) exists');
select is(
  (select prosecdef from pg_proc where oid = 'search.persona_ids_matching(text)'::regprocedure),
  true,
  'it is SECURITY DEFINER (so the pattern may use the indexes; policies hide nothing it returns)'
);
select ok(
  not has_function_privilege('anon', 'search.persona_ids_matching(text)', 'execute')
    and has_function_privilege('authenticated', 'search.persona_ids_matching(text)', 'execute'),
  'authenticated may execute it, anon may not'
);
select set_eq(
  $$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'search'
     union all
     select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'search' $$,
  $$ values ('search.persona_ids_matching(text)') $$,
  'the schema search holds that function and nothing else'
);
select ok(
  not has_schema_privilege('anon', 'search', 'usage')
    and not has_schema_privilege('anon', 'private', 'usage') and not has_schema_privilege('authenticated', 'private', 'usage'),
  'anon cannot use the schema search; private stays closed to anon and authenticated'
);
select set_eq(
  $$ select c.relname::text from pg_class c
      where c.relname in ('personas_name_trgm_idx', 'personas_description_trgm_idx')
        and 'fastupdate=off' = any(c.reloptions) $$,
  $$ values ('personas_name_trgm_idx'), ('personas_description_trgm_idx') $$,
  'both trigram indexes take new entries at once (no pending list that every search reads)'
);

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());
insert into public.personas (id, user_id, name, description) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Zephyr Vale', 'A wind spirit'),
  ('a0000000-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111', 'Nova', 'Talks like a zephyr at dawn'),
  ('a0000000-0000-4000-8000-000000000003', '11111111-1111-4111-8111-111111111111', 'Quill', '100% honest'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Zephyrine', 'Bob''s');

-- ---------------------------------------------------------------- as Alice
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select set_eq(
  $$ select search.persona_ids_matching('%zephyr%') $$,
  $$ values ('a0000000-0000-4000-8000-000000000001'::uuid), ('a0000000-0000-4000-8000-000000000002'::uuid) $$,
  'name or description, any case: Alice''s two, not Bob''s Zephyrine'
);
select set_eq(
  $$ select search.persona_ids_matching('%100\%%') $$,
  $$ values ('a0000000-0000-4000-8000-000000000003'::uuid) $$,
  'an escaped % matches itself'
);
select is_empty(
  $$ select search.persona_ids_matching('%bob''s%') $$,
  'another creator''s description matches nothing'
);
select set_eq(
  $$ select id from public.personas where id = any(array(select search.persona_ids_matching('%zephyr%'))) $$,
  $$ values ('a0000000-0000-4000-8000-000000000001'::uuid), ('a0000000-0000-4000-8000-000000000002'::uuid) $$,
  'the library''s query through it lists the same two'
);
reset role;

-- A token without a subject (or none at all) finds nothing.
set local role authenticated;
set local request.jwt.claims = '{"role":"authenticated"}';
select is_empty($$ select search.persona_ids_matching('%') $$, 'no subject in the claims: nothing');
reset role;

-- ---------------------------------------------------------------- as anon
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select throws_ok(
  $$ select search.persona_ids_matching('%zephyr%') $$,
  '42501', null,
  'anon cannot ask'
);
reset role;

select * from finish();
rollback;
