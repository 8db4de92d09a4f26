-- Hand-written: the account-change notice (20261123100000_account_change_notices) also on every
-- committed change to a creator's personas, generations and image jobs (issue 14). The
-- embedded server keeps what the dashboard, the library's lists, the history and the persona
-- page read (decision 020) until the database says, in the committing statement's answer,
-- that this creator's data changed: a persona created, saved, edited, archived, restored,
-- deleted, imported or given an image; a backstory, chat reply or image logged; an image job
-- started, finished, failed or recovered. Written by triggers, so no code path can change
-- them without it; the notice carries the owner's id (every one of these tables has user_id).
--
-- `pg_notify` is transactional and folds identical notices of one transaction into one, so a
-- bulk write (2,000 personas deleted with their account) sends one. On a database server
-- nothing listens and nothing is kept.
create or replace function private.notify_owner_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op <> 'INSERT' then
    perform pg_notify('pf_account_changed', old.user_id::text);
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.user_id is distinct from old.user_id) then
    perform pg_notify('pf_account_changed', new.user_id::text);
  end if;
  return null;
end;
$$;

revoke execute on function private.notify_owner_changed() from public, anon, authenticated;

create trigger owner_changed_on_persona
  after insert or update or delete on public.personas
  for each row execute function private.notify_owner_changed();

create trigger owner_changed_on_generation
  after insert or update or delete on public.generations
  for each row execute function private.notify_owner_changed();

create trigger owner_changed_on_image_job
  after insert or update or delete on public.image_jobs
  for each row execute function private.notify_owner_changed();
