-- private.oauth_identities: the embedded auth's links from a provider's person to an
-- account. Outside the Data API's schemas, RLS on with no policy, nothing for anon or
-- authenticated; the service role (the auth adapter's door) links, and deleting the
-- account removes its links.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;
set local search_path = public, extensions;

select plan(11);

select has_table('private', 'oauth_identities', 'private.oauth_identities exists');
select col_is_pk('private', 'oauth_identities', array['provider', 'subject'], 'one row per provider and subject');
select ok(
  (select c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'private' and c.relname = 'oauth_identities'),
  'row-level security is enabled on private.oauth_identities'
);
select is_empty(
  $$ select policyname from pg_policies where schemaname = 'private' and tablename = 'oauth_identities' $$,
  'private.oauth_identities has no policy (only a role that bypasses RLS reaches it)'
);
select table_privs_are('private', 'oauth_identities', 'anon', array[]::text[], 'anon has no privilege on private.oauth_identities');
select table_privs_are('private', 'oauth_identities', 'authenticated', array[]::text[], 'authenticated has no privilege on private.oauth_identities');

insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000a1', 'pgtap-oauth@example.com');

-- ---------------------------------------------------------------- as the service role
set local role service_role;
insert into private.oauth_identities (provider, subject, user_id, email)
values ('github', '12345', '00000000-0000-4000-8000-0000000000a1', 'pgtap-oauth@example.com');
select is(
  (select user_id::text from private.oauth_identities where provider = 'github' and subject = '12345'),
  '00000000-0000-4000-8000-0000000000a1',
  'the service role links an identity to an account'
);
select throws_ok(
  $$ insert into private.oauth_identities (provider, subject, user_id, email)
     values ('github', '12345', '00000000-0000-4000-8000-0000000000a1', 'other@example.com') $$,
  '23505', null,
  'a provider''s person is linked to one account only'
);
reset role;

-- ---------------------------------------------------------------- as a signed-in user
set local role authenticated;
select set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-8000-0000000000a1","role":"authenticated"}', true);
select throws_ok(
  $$ select * from private.oauth_identities $$,
  '42501', null,
  'even the account''s owner cannot read the links through the Data API roles'
);
reset role;

set local role anon;
select throws_ok(
  $$ insert into private.oauth_identities (provider, subject, user_id, email)
     values ('google', 'x', '00000000-0000-4000-8000-0000000000a1', 'x@example.com') $$,
  '42501', null,
  'anon cannot link an identity'
);
reset role;

delete from auth.users where id = '00000000-0000-4000-8000-0000000000a1';
select is(
  (select count(*)::int from private.oauth_identities where subject = '12345'),
  0,
  'deleting the account removes its links'
);

select * from finish();
rollback;
