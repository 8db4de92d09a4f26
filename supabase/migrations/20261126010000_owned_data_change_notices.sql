-- Hand-written: the account-change notice (20261123100000_account_change_notices) also on every
-- committed change to a creator's personas, generations and image jobs (docs/decisions/020-page-data-kept-until-the-database-says-it-changed.md). The
-- embedded server keeps what the dashboard, the library's lists, the history and the persona
-- page read (decision 020) until the database says, in the committing statement's answer,
-- that this creator's data changed: a persona created, saved, edited, archived, restored,
-- deleted, imported or given an image; a backstory, chat reply or image logged; an image job
-- started, finished, failed or recovered. Written by triggers, so no code path can change
-- them without it; the notice carries the owner's id.
--
-- The same function as the account's triggers, taught where each table keeps its user: the
-- `id` of auth.users and public.profiles, the `user_id` of every other table it watches.
-- `pg_notify` is transactional and folds identical notices of one transaction into one, so a
-- bulk write (2,000 personas deleted with their account) sends one. On a database server
-- nothing listens and nothing is kept.
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
    if tg_table_name in ('users', 'profiles') then old_id := old.id; else old_id := old.user_id; end if;
    perform pg_notify('pf_account_changed', old_id::text);
  end if;
  if tg_op <> 'DELETE' then
    if tg_table_name in ('users', 'profiles') then new_id := new.id; else new_id := new.user_id; end if;
    if new_id is distinct from old_id then
      perform pg_notify('pf_account_changed', new_id::text);
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function private.notify_account_changed() from public, anon, authenticated;

create trigger owner_changed_on_persona
  after insert or update or delete on public.personas
  for each row execute function private.notify_account_changed();

create trigger owner_changed_on_generation
  after insert or update or delete on public.generations
  for each row execute function private.notify_account_changed();

create trigger owner_changed_on_image_job
  after insert or update or delete on public.image_jobs
  for each row execute function private.notify_account_changed();
