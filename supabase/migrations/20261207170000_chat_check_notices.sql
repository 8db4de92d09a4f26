-- Hand-written: the change notice also on the writes to chat_messages that change what the reply
-- checks show (docs/product.md, Chat: checks on your chats). The persona page's 'Checks on your
-- chats' and the library's 'Slips in chat' badge are kept reads (KEPT_READS.chatChecks,
-- chatFlagBadges, docs/decisions/044-reply-checks-after-the-answer.md) that read
-- public.chat_messages, and every table a kept read depends on must say its own changes.
--
-- Only what the checks read is said: a message stored with findings (none is, today: a reply is
-- stored unchecked), a change of a message's findings (a reply checked, or a Regenerate or a
-- choice of alternative that clears them), and a deletion (Clear). Sending a message says
-- nothing, so a chat keeps the creator's other kept pages.
--
-- A chat message names its persona, not its owner: the owner is the persona's (as for
-- persona_probes). When a persona is deleted its messages go after it; the persona's own notice
-- has said the change already.
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
    elsif tg_table_name in ('persona_probes', 'chat_messages') then old_id := (select p.user_id from public.personas p where p.id = old.persona_id);
    else old_id := old.user_id; end if;
    if old_id is not null then
      perform pg_notify('pf_account_changed', old_id::text);
      raise notice 'pf_account_changed %', old_id;
    end if;
  end if;
  if tg_op <> 'DELETE' then
    if tg_table_name in ('users', 'profiles') then new_id := new.id;
    elsif tg_table_name in ('persona_probes', 'chat_messages') then new_id := (select p.user_id from public.personas p where p.id = new.persona_id);
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

create trigger owner_changed_on_checked_chat_message_insert
  after insert on public.chat_messages
  for each row when (new.checks is not null)
  execute function private.notify_account_changed();

create trigger owner_changed_on_chat_message_checks
  after update on public.chat_messages
  for each row when (old.checks is distinct from new.checks)
  execute function private.notify_account_changed();

create trigger owner_changed_on_chat_message_delete
  after delete on public.chat_messages
  for each row
  execute function private.notify_account_changed();
