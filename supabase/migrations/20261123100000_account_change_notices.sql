-- Hand-written: a notice on every committed change to what a session check answers (docs/decisions/014-less-work-per-signed-in-request.md).
-- The embedded auth checks a session with one statement (20261123060000_session_lookup): the
-- session is open, the account exists, and its profile. The embedded database is one process's
-- own, so the server may keep a checked session in memory as long as the database tells it, in
-- the same commit, when any of that changes: a session ends (sign-out, password change or reset,
-- a newer sign-in with a provider), the account changes or goes, the profile changes.
--
-- `pg_notify` is transactional: the notice is delivered when the writing transaction commits
-- (never for a rolled-back one), and PGlite hands it over while it answers the COMMIT, so the
-- server forgets the user before the write's own request goes on. The payload is the user's id.
-- Written by triggers, so no code path can change an account without it. On a database server
-- nothing listens (nothing is kept: every request asks the database), and a notice without a
-- listener costs nothing.
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
    if tg_table_name = 'sessions' then old_id := old.user_id; else old_id := old.id; end if;
    perform pg_notify('pf_account_changed', old_id::text);
  end if;
  if tg_op <> 'DELETE' then
    if tg_table_name = 'sessions' then new_id := new.user_id; else new_id := new.id; end if;
    if new_id is distinct from old_id then
      perform pg_notify('pf_account_changed', new_id::text);
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function private.notify_account_changed() from public, anon, authenticated;

-- A session ending or changing (a new one needs no notice: nothing knows it yet).
create trigger account_changed_on_session
  after update or delete on auth.sessions
  for each row execute function private.notify_account_changed();

-- What the session check reads of the account (not last_sign_in_at, written at every sign-in).
create trigger account_changed_on_user_update
  after update of id, email, email_confirmed_at, created_at, deleted_at on auth.users
  for each row execute function private.notify_account_changed();

create trigger account_changed_on_user_delete
  after delete on auth.users
  for each row execute function private.notify_account_changed();

-- The profile every signed-in page shows (name, avatar, plan), including its first row.
create trigger account_changed_on_profile
  after insert or update or delete on public.profiles
  for each row execute function private.notify_account_changed();
