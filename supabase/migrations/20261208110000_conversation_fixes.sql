-- Fixes to try (docs/product.md, Long conversations: fixes to try): a long-conversation test can be
-- played again, with the same seed and turns, on the persona with a fix's text added (nothing is
-- stored on the persona until the creator keeps it).
--
-- - `fix`: the fix a run tries ({ category, place, text, depth?, keptAs? }), null for a plain run;
-- - `base_run_id`: the run it was suggested by (deleting that run deletes its tries);
-- - `notes`: the fixes tried on this run and discarded, the only trace they leave.
-- One queued plain run a persona, and one queued try.
alter table public.conversation_tests
  add column fix jsonb,
  add column base_run_id uuid references public.conversation_tests (id) on delete cascade,
  add column notes jsonb not null default '[]'::jsonb,
  add constraint conversation_tests_fix_valid check (fix is null or (jsonb_typeof(fix) = 'object' and octet_length(fix::text) <= 16384)),
  add constraint conversation_tests_notes_valid check (jsonb_typeof(notes) = 'array' and octet_length(notes::text) <= 65536),
  add constraint conversation_tests_fix_has_base check ((fix is null) = (base_run_id is null));

drop index public.conversation_tests_one_queued_idx;
create unique index conversation_tests_one_queued_idx on public.conversation_tests using btree (persona_id) where status = 'queued' and fix is null;
create unique index conversation_tests_one_queued_fix_idx on public.conversation_tests using btree (persona_id) where status = 'queued' and fix is not null;
create index conversation_tests_base_run_id_idx on public.conversation_tests using btree (base_run_id);
