-- Hand-written: the change notice (20261127100000_probe_change_notices) is also said to the
-- connection that wrote, as a NOTICE `pf_account_changed <owner id>`
-- (docs/decisions/032-one-database-path.md). The embedded database is served to the app as a
-- PostgreSQL server (PGlite behind a socket) and reached through the same driver as a database
-- server; it is one session that the app alone uses, so the app hears what changed from the
-- answer to its own statement (postgres.js's `onnotice`), before the statement's promise
-- resolves and before the COMMIT. `pg_notify` stays: it is what every process LISTENs to on a
-- database server (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
--
-- The function is the same as before but for the `raise notice` beside each `pg_notify`. A
-- client that does not want notices (Supabase's API, psql with client_min_messages = warning)
-- simply does not receive them.
create or replace function private.notify_account_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  old_id uuid;
  new_id uuid;
begin
  if tg_op <> 'INSERT' then
    -- One branch per shape: a statement naming a column the row lacks would fail.
    if tg_table_name in ('users', 'profiles') then old_id := old.id;
    elsif tg_table_name = 'persona_probes' then old_id := (select p.user_id from public.personas p where p.id = old.persona_id);
    else old_id := old.user_id; end if;
    if old_id is not null then
      perform pg_notify('pf_account_changed', old_id::text);
      raise notice 'pf_account_changed %', old_id;
    end if;
  end if;
  if tg_op <> 'DELETE' then
    if tg_table_name in ('users', 'profiles') then new_id := new.id;
    elsif tg_table_name = 'persona_probes' then new_id := (select p.user_id from public.personas p where p.id = new.persona_id);
    else new_id := new.user_id; end if;
    if new_id is not null and new_id is distinct from old_id then
      perform pg_notify('pf_account_changed', new_id::text);
      raise notice 'pf_account_changed %', new_id;
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function private.notify_account_changed() from public, anon, authenticated;
