-- Hand-written: alternative replies (docs/product.md, Chat: alternatives).
--
-- - chat_messages.alternatives: every reply the persona wrote for this turn, oldest first, as
--   [{ content, lore, version, at }] (lore as [{ id, name }] or null, version the persona version
--   that wrote it or null, at an ISO 8601 time). Null while a reply has only itself. Only a reply
--   (role 'assistant') has them; at most 20 are kept.
-- - chat_messages.chosen: the index of the alternative shown, which is the one the conversation
--   continues from: the row's content, lore and persona_version are that alternative's, so every
--   reader of the conversation reads the chosen reply without knowing about the others.
alter table public.chat_messages add column alternatives jsonb;
alter table public.chat_messages add column chosen integer;

alter table public.chat_messages add constraint chat_messages_alternatives_valid check (
  (alternatives is null and chosen is null)
  or (
    role = 'assistant'
    and jsonb_typeof(alternatives) = 'array'
    and jsonb_array_length(alternatives) between 2 and 20
    and chosen between 0 and jsonb_array_length(alternatives) - 1
    and octet_length(alternatives::text) <= 2097152
  )
);
