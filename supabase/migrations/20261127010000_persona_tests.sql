-- Hand-written: persona tests (docs/product.md, Persona tests; docs/decisions/030-persona-tests.md).
--
-- - public.persona_probes: a persona's probes, one row each, in the creator's order (`position`).
--   `probe` is the probe as app/domain/probes.ts checks it (name, turns, expectations, the fact it
--   pins); the database bounds its size. The owner reads and writes their personas' probes; nobody
--   else sees them. A probe goes with its persona. Probes are not part of a version: editing one
--   is not a change of the character.
-- - public.probe_runs: a run of the suite against one version of the persona, by the embedded
--   responder or a model (`model`), with every probe's replies and verdicts (`results`). A run is
--   'queued', then 'running', then 'completed' (passed + failed = total) or 'failed' (it could not
--   finish: `error` says why, `results` keeps what it has). At most one queued and one running run
--   per persona (two partial unique indexes), so a run started twice at once is one run. A running
--   run past its deadline counts as failed (a server that died mid-run leaves none running forever).
-- - private.queue_probe_run(): every new version of a persona that has enabled probes queues a run
--   of that version (the queued one moves on to the newest version), whichever way the version
--   was written. The server hears the version's change notice and starts it (app/services/probes.server.ts).
-- - chat_messages.persona_version: the version a reply was written with (null for messages
--   written before this, and for the creator's own messages).
create table public.persona_probes (
  id uuid primary key default gen_random_uuid(),
  persona_id uuid not null references public.personas (id) on delete cascade,
  position integer not null default 0,
  probe jsonb not null,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint persona_probes_probe_valid check (jsonb_typeof(probe) = 'object' and octet_length(probe::text) <= 65536)
);

alter table public.persona_probes enable row level security;
create index persona_probes_persona_id_position_idx on public.persona_probes using btree (persona_id, position);

create policy "persona_probes_select_own" on public.persona_probes as permissive for select to authenticated
  using (exists (select 1 from public.personas p where p.id = persona_probes.persona_id and p.user_id = (select auth.uid())));
create policy "persona_probes_insert_own" on public.persona_probes as permissive for insert to authenticated
  with check (exists (select 1 from public.personas p where p.id = persona_probes.persona_id and p.user_id = (select auth.uid())));
create policy "persona_probes_update_own" on public.persona_probes as permissive for update to authenticated
  using (exists (select 1 from public.personas p where p.id = persona_probes.persona_id and p.user_id = (select auth.uid())))
  with check (exists (select 1 from public.personas p where p.id = persona_probes.persona_id and p.user_id = (select auth.uid())));
create policy "persona_probes_delete_own" on public.persona_probes as permissive for delete to authenticated
  using (exists (select 1 from public.personas p where p.id = persona_probes.persona_id and p.user_id = (select auth.uid())));

revoke all on table public.persona_probes from anon, authenticated;
grant select, insert, update, delete on table public.persona_probes to authenticated;
grant all on table public.persona_probes to service_role;

create table public.probe_runs (
  id uuid primary key default gen_random_uuid(),
  persona_id uuid not null references public.personas (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  version integer not null,
  trigger text not null,
  model text,
  status text not null default 'queued',
  total integer not null default 0,
  passed integer not null default 0,
  failed integer not null default 0,
  results jsonb not null default '[]'::jsonb,
  error text,
  created_at timestamp with time zone not null default now(),
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  deadline timestamp with time zone,
  constraint probe_runs_version_positive check (version >= 1),
  constraint probe_runs_trigger_valid check (trigger = any (array['manual', 'version']::text[])),
  constraint probe_runs_status_valid check (status = any (array['queued', 'running', 'completed', 'failed']::text[])),
  constraint probe_runs_counts_valid check (total >= 0 and passed >= 0 and failed >= 0 and passed + failed <= total),
  constraint probe_runs_results_valid check (jsonb_typeof(results) = 'array' and octet_length(results::text) <= 1048576),
  constraint probe_runs_error_length check (char_length(error) <= 500),
  constraint probe_runs_model_length check (char_length(model) <= 200)
);

alter table public.probe_runs enable row level security;
create index probe_runs_persona_id_created_at_idx on public.probe_runs using btree (persona_id, created_at desc);
create index probe_runs_user_id_idx on public.probe_runs using btree (user_id);
create unique index probe_runs_one_queued_idx on public.probe_runs using btree (persona_id) where status = 'queued';
create unique index probe_runs_one_running_idx on public.probe_runs using btree (persona_id) where status = 'running';

create policy "probe_runs_select_own" on public.probe_runs as permissive for select to authenticated
  using (user_id = (select auth.uid()));
create policy "probe_runs_insert_own" on public.probe_runs as permissive for insert to authenticated
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = probe_runs.persona_id and p.user_id = (select auth.uid())));
create policy "probe_runs_update_own" on public.probe_runs as permissive for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = probe_runs.persona_id and p.user_id = (select auth.uid())));
create policy "probe_runs_delete_own" on public.probe_runs as permissive for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.probe_runs from anon, authenticated;
grant select, insert, update, delete on table public.probe_runs to authenticated;
grant all on table public.probe_runs to service_role;

-- A new version of a persona with enabled probes queues a run of it. A probe is enabled unless its
-- `enabled` is false (as app/domain/probes.ts defaults it); the test is a text comparison, never a
-- cast, so a probe written with some other `enabled` cannot fail the persona's write.
create or replace function private.queue_probe_run()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (
    select 1 from public.persona_probes pr
    where pr.persona_id = new.persona_id and (pr.probe ->> 'enabled') is distinct from 'false'
  ) then
    insert into public.probe_runs (persona_id, user_id, version, trigger, status)
      values (new.persona_id, new.user_id, new.version, 'version', 'queued')
      on conflict (persona_id) where status = 'queued'
      do update set version = greatest(public.probe_runs.version, excluded.version), created_at = now();
  end if;
  return null;
end;
$$;

revoke execute on function private.queue_probe_run() from public, anon, authenticated;

create trigger persona_versions_queue_probe_run
  after insert on public.persona_versions
  for each row execute function private.queue_probe_run();

alter table public.chat_messages add column persona_version integer;
alter table public.chat_messages add constraint chat_messages_persona_version_positive check (persona_version is null or persona_version >= 1);

-- A run's changes say so like the persona's own (the library's cards show the last run's badge).
create trigger owner_changed_on_probe_run
  after insert or update or delete on public.probe_runs
  for each row execute function private.notify_account_changed();
