-- A run in each front end says its changes like the persona's own: the card check page is a kept
-- read that shows the latest run (docs/decisions/023-kept-reads-declared-and-heard-everywhere.md).
create trigger owner_changed_on_card_target_run
  after insert or update or delete on public.card_target_runs
  for each row execute function private.notify_account_changed();
