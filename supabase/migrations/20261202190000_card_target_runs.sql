-- The persona's tests in each front end (docs/cards.md, Behaviour in each front end): a run takes
-- the card this product exports for each of SillyTavern, RisuAI, Chub, JanitorAI, Backyard AI and
-- Agnai, builds the persona as that front end's prompt would carry it, and runs the enabled
-- probes against it (and against the persona itself, for comparison), off the request, as a job.
--
-- - public.card_target_runs: one run of one version; `results` holds, per front end, its counts,
--   what its prompt lacks and each probe's verdict; `here` the same probes against the persona
--   as this product holds it. Own rows only, as probe_runs; one queued run a persona.
-- - The job is queued with the row, in the same transaction (the job_queue migration's pattern);
--   a run is started through the app only (its quota), POST /api/personas/{id}/survival/run.
create table public.card_target_runs (
  id uuid primary key default gen_random_uuid(),
  persona_id uuid not null references public.personas (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  version integer not null,
  model text,
  status text not null default 'queued',
  here jsonb,
  results jsonb not null default '[]'::jsonb,
  error text,
  created_at timestamp with time zone not null default now(),
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  deadline timestamp with time zone,
  constraint card_target_runs_version_positive check (version >= 1),
  constraint card_target_runs_status_valid check (status = any (array['queued', 'running', 'completed', 'failed']::text[])),
  constraint card_target_runs_results_valid check (jsonb_typeof(results) = 'array' and octet_length(results::text) <= 1048576),
  constraint card_target_runs_here_valid check (here is null or (jsonb_typeof(here) = 'object' and octet_length(here::text) <= 262144)),
  constraint card_target_runs_error_length check (char_length(error) <= 500),
  constraint card_target_runs_model_length check (char_length(model) <= 200)
);

alter table public.card_target_runs enable row level security;
create index card_target_runs_persona_id_created_at_idx on public.card_target_runs using btree (persona_id, created_at desc);
create index card_target_runs_user_id_idx on public.card_target_runs using btree (user_id);
create unique index card_target_runs_one_queued_idx on public.card_target_runs using btree (persona_id) where status = 'queued';

create policy "card_target_runs_select_own" on public.card_target_runs as permissive for select to authenticated
  using (user_id = (select auth.uid()));
create policy "card_target_runs_insert_own" on public.card_target_runs as permissive for insert to authenticated
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = card_target_runs.persona_id and p.user_id = (select auth.uid())));
create policy "card_target_runs_update_own" on public.card_target_runs as permissive for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = card_target_runs.persona_id and p.user_id = (select auth.uid())));
create policy "card_target_runs_delete_own" on public.card_target_runs as permissive for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.card_target_runs from anon, authenticated;
grant select, insert, update, delete on table public.card_target_runs to authenticated;
grant all on table public.card_target_runs to service_role;

-- card-target-tests: one job per run (seven passes of the probes). Tried again after a crash
-- (retryLimit 2, backoff from 2 s); an attempt still active after 15 minutes counts as crashed.
-- Spent tries go to card-target-tests-failed, whose job records the run as interrupted.
select pgboss.create_queue('card-target-tests-failed', '{"policy":"standard","retryLimit":5,"retryDelay":5,"retryBackoff":true,"expireInSeconds":60}');
select pgboss.create_queue('card-target-tests', '{"policy":"standard","retryLimit":2,"retryDelay":2,"retryBackoff":true,"expireInSeconds":900,"deadLetter":"card-target-tests-failed"}');

create or replace function private.queue_card_target_run_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.outside_app() then
    raise exception 'A run in each front end is started through the app: POST /api/personas/{id}/survival/run' using errcode = '42501';
  end if;
  perform private.queue_job('card-target-tests',
    jsonb_build_object('runId', new.id, 'userId', new.user_id, 'personaId', new.persona_id), new.persona_id::text);
  return null;
end;
$$;

revoke execute on function private.queue_card_target_run_job() from public, anon, authenticated;

create trigger card_target_runs_queue_job
  after insert on public.card_target_runs
  for each row when (new.status = 'queued')
  execute function private.queue_card_target_run_job();
