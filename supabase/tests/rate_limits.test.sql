-- private.rate_limits: the abuse-limit counters shared by the app servers. Outside the Data
-- API's schemas, RLS on with no policy, nothing for anon or authenticated; the service role
-- (the app's privileged door) counts atomically with one upsert.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;
set local search_path = public, extensions;

select plan(10);

select has_table('private', 'rate_limits', 'private.rate_limits exists');
select col_is_pk('private', 'rate_limits', 'key', 'one row per counter key');
select ok(
  (select c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'private' and c.relname = 'rate_limits'),
  'row-level security is enabled on private.rate_limits'
);
select is_empty(
  $$ select policyname from pg_policies where schemaname = 'private' and tablename = 'rate_limits' $$,
  'private.rate_limits has no policy (only a role that bypasses RLS reaches it)'
);
select ok(
  not has_schema_privilege('anon', 'private', 'usage') and not has_schema_privilege('authenticated', 'private', 'usage'),
  'anon and authenticated cannot use the schema private'
);
select table_privs_are('private', 'rate_limits', 'anon', array[]::text[], 'anon has no privilege on private.rate_limits');
select table_privs_are('private', 'rate_limits', 'authenticated', array[]::text[], 'authenticated has no privilege on private.rate_limits');

-- ---------------------------------------------------------------- as anon
set local role anon;
select throws_ok(
  $$ select * from private.rate_limits $$,
  '42501', null,
  'anon cannot read the counters'
);
reset role;

-- ---------------------------------------------------------------- as the service role
set local role service_role;
insert into private.rate_limits (key, points, expire) values ('pgtap:k', 1, now() + interval '15 minutes');
with counted as (
  insert into private.rate_limits as r (key, points, expire) values ('pgtap:k', 1, now() + interval '15 minutes')
  on conflict (key) do update set points = r.points + excluded.points
  returning r.points
)
select is((select points from counted), 2, 'the service role counts with one atomic upsert');
select is(
  (select count(*)::int from private.rate_limits where key = 'pgtap:k'),
  1,
  'still one row for the key'
);
reset role;

select * from finish();
rollback;
