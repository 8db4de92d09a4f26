-- Hand-written: the change notice (20261123100000_account_change_notices, 20261126010000_owned_data_change_notices)
-- on every write to every table a kept read depends on (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
-- Each kept read declares the tables it reads (app/infra/db/kept-reads.server.ts), and a test
-- (kept-reads.server.test.ts) fails unless each of them has a trigger calling
-- private.notify_account_changed() after insert, update and delete. Three were missing:
--
-- - public.persona_versions: the history's pages and comparisons read it. A version is written
--   only by the trigger on its persona (whose own notice already says it), but a table a read
--   depends on must say its own changes, whoever writes them. Postgres folds the identical
--   notice of the same transaction into one, so this costs nothing.
-- - auth.sessions and auth.users on insert: a new session or account is one no process has
--   kept yet, but the notice makes the rule the same for every table.
--
-- Every process keeps reads only while it hears these notices: PGlite with the commit's answer,
-- a database server through LISTEN on a connection of its own (docs/supabase.md).
create trigger owner_changed_on_persona_version
  after insert or update or delete on public.persona_versions
  for each row execute function private.notify_account_changed();

create trigger account_changed_on_session_insert
  after insert on auth.sessions
  for each row execute function private.notify_account_changed();

create trigger account_changed_on_user_insert
  after insert on auth.users
  for each row execute function private.notify_account_changed();
