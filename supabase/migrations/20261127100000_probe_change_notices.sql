-- Hand-written: the change notice (20261126010000_owned_data_change_notices) also on every write to
-- a persona's probes (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md). The persona
-- page's tests line and the tests page are kept reads (KEPT_READS.testSummaries, testStates) that
-- read public.persona_probes, and every table a kept read depends on must say its own changes.
--
-- A probe row names its persona, not its owner: the owner is the persona's. When a persona is
-- deleted its probes go with it after it, so the persona is not found then; the persona's own
-- notice has already said the change, and nothing more is sent.
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
    end if;
  end if;
  if tg_op <> 'DELETE' then
    if tg_table_name in ('users', 'profiles') then new_id := new.id;
    elsif tg_table_name = 'persona_probes' then new_id := (select p.user_id from public.personas p where p.id = new.persona_id);
    else new_id := new.user_id; end if;
    if new_id is not null and new_id is distinct from old_id then
      perform pg_notify('pf_account_changed', new_id::text);
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function private.notify_account_changed() from public, anon, authenticated;

create trigger owner_changed_on_persona_probe
  after insert or update or delete on public.persona_probes
  for each row execute function private.notify_account_changed();
