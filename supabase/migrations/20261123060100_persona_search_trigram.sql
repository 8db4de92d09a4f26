-- Hand-written: trigram indexes behind the library's search (docs/decisions/008-one-statement-sessions-and-a-database-thread.md). /my-personas?q=
-- matches `name ILIKE '%q%' OR description ILIKE '%q%'`; a B-tree cannot serve a
-- pattern with a leading wildcard, a pg_trgm GIN index can (its operator class covers
-- ILIKE), so a search costs about the same with 10 personas or thousands.
--
-- pg_trgm ships with PostgreSQL's contrib (Debian's postgresql-15), is available on
-- Supabase (in its `extensions` schema) and is loaded into PGlite by the app
-- (app/infra/db/client.server.ts). The operator class is looked up in whichever schema
-- the extension already lives in, so a database that installed it elsewhere still works.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

do $$
declare
  trgm_schema text;
begin
  select n.nspname into trgm_schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace
   where e.extname = 'pg_trgm';
  execute format('create index if not exists personas_name_trgm_idx on public.personas using gin (name %I.gin_trgm_ops)', trgm_schema);
  execute format('create index if not exists personas_description_trgm_idx on public.personas using gin (description %I.gin_trgm_ops)', trgm_schema);
end $$;
