-- Hand-written: the library's search really goes through its trigram indexes.
-- Migration 20261123060100 created them, but two things kept every search a full scan of the
-- creator's personas (12 ms for 2,000 in PGlite, against 0.3 ms through the indexes):
--
-- 1. Row-level security. A policy's condition is checked before any of the query's own
--    conditions that are not LEAKPROOF, and ILIKE is not (only a superuser may mark it so).
--    So under the `authenticated` role the planner may not use `name ILIKE '%q%'` as an index
--    condition: it scans every row of the creator's and tests the pattern on each. The
--    pattern is therefore matched by the function below, SECURITY DEFINER (its owner, the
--    migration's role, owns the table, so no policy applies inside it): it returns the ids of
--    the caller's own personas (`auth.uid()`, from the transaction's JWT claims, never a
--    parameter) whose name or description match, found through the indexes. The query that
--    lists them keeps its policies: it reads `id = any(array(select …))`, and uuid equality
--    is leakproof, so that is a primary-key lookup.
-- 2. GIN's pending list. With `fastupdate` (the default), new entries wait in an unsorted
--    list that every search reads in full, until VACUUM merges them. PGlite runs no
--    autovacuum, so that list only grew. Entries now go straight into the index, and what
--    waits is merged here.
--
-- The function lives in a schema of its own, `search`, which only `authenticated` and the
-- service role may use and which holds nothing else (`private` stays closed to them;
-- supabase/tests/persona_search.test.sql checks both).
create schema if not exists search;
revoke all on schema search from public;
grant usage on schema search to authenticated, service_role;

create or replace function search.persona_ids_matching(pattern text)
returns setof uuid
language sql
stable
security definer
set search_path = ''
rows 20
as $$
  select p.id
    from public.personas p
   where p.user_id = (select auth.uid())
     and (p.name ilike pattern or p.description ilike pattern)
$$;

revoke all on function search.persona_ids_matching(text) from public, anon;
grant execute on function search.persona_ids_matching(text) to authenticated, service_role;

alter index public.personas_name_trgm_idx set (fastupdate = off);
alter index public.personas_description_trgm_idx set (fastupdate = off);
select gin_clean_pending_list('public.personas_name_trgm_idx'::regclass);
select gin_clean_pending_list('public.personas_description_trgm_idx'::regclass);
