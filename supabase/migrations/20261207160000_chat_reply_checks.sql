-- Hand-written: checks on real chats (docs/product.md, Chat: checks on your chats).
--
-- - chat_messages.checks: what the reply checks found in a reply the persona wrote in the
--   creator's conversation, as [{ check, detail }] ([] when it passed every check); null while it
--   has not been checked (the creator's own messages, imported ones, and a reply whose check has
--   not run yet). The checks run after the reply is stored, off the request.
-- - An index on the persona's replies by version, for the per-version counts.
alter table public.chat_messages add column checks jsonb;
alter table public.chat_messages add constraint chat_messages_checks_valid
  check (checks is null or (jsonb_typeof(checks) = 'array' and octet_length(checks::text) <= 16384));
create index chat_messages_persona_id_version_idx on public.chat_messages using btree (persona_id, persona_version)
  where checks is not null;
