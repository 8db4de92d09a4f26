-- At most a few of one creator's test runs have a job at once (docs/deployment.md, Background
-- work): a creator who starts runs on sixty personas gets two under way and the rest queued
-- behind them, so another creator's run is picked up by the next free worker instead of waiting
-- for all sixty. The number is the database setting personaforge.test_runs_per_creator (2 when
-- unset). A run waiting for its creator's turn is 'queued' like any other; its job is added when
-- one of that creator's runs ends or is deleted.

-- How many of a creator's runs are under way: running (and not past its deadline: its worker
-- died), or queued with a job waiting or under way.
create or replace function private.test_runs_under_way(creator uuid, other_than uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from public.probe_runs r
  where r.user_id = creator and r.id is distinct from other_than and (
    (r.status = 'running' and (r.deadline is null or r.deadline > now()))
    or (r.status = 'queued' and exists (
      select 1 from pgboss.job j
      where j.name = 'persona-tests' and j.state < 'completed' and j.data ->> 'runId' = r.id::text
    ))
  );
$$;

revoke execute on function private.test_runs_under_way(uuid, uuid) from public, anon, authenticated;

create or replace function private.test_runs_per_creator()
returns integer
language sql
stable
set search_path = ''
as $$
  select greatest(1, coalesce(nullif(current_setting('personaforge.test_runs_per_creator', true), '')::integer, 2));
$$;

revoke execute on function private.test_runs_per_creator() from public, anon, authenticated;

-- The job of a queued run: at once when no run of the persona is under way (one 'running' past
-- its deadline is not: its worker died) and the creator has fewer runs under way than the
-- setting allows; else when a run ends: the persona's own queued run first, then the creator's
-- oldest waiting one. Each trigger takes the persona's row lock first, then the creator's
-- advisory lock, so two runs queued or ended at once see each other's jobs, and a run whose job
-- is waiting or under way gets no second one.
create or replace function private.queue_probe_run_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  run public.probe_runs;
  next_run public.probe_runs;
begin
  if tg_op = 'INSERT' and pg_trigger_depth() = 1 and private.outside_app() then
    raise exception 'A test run is started through the app: POST /api/personas/{id}/probes/run' using errcode = '42501';
  end if;
  run := case when tg_op = 'DELETE' then old else new end;
  perform 1 from public.personas p where p.id = run.persona_id for update;
  perform pg_advisory_xact_lock(hashtextextended('personaforge.test-runs:' || run.user_id::text, 0));
  if tg_op = 'INSERT' then
    if not exists (
      select 1 from public.probe_runs r
      where r.persona_id = new.persona_id and r.status = 'running' and (r.deadline is null or r.deadline > now())
    ) and private.test_runs_under_way(new.user_id, new.id) < private.test_runs_per_creator() then
      next_run := new;
    end if;
  elsif private.test_runs_under_way(run.user_id, null) < private.test_runs_per_creator() then
    -- A run ended (or went): the persona's own queued run, else the creator's oldest waiting run
    -- of a persona with nothing running.
    select r.* into next_run from public.probe_runs r
    where r.user_id = run.user_id and r.status = 'queued'
      and not exists (
        select 1 from pgboss.job j
        where j.name = 'persona-tests' and j.state < 'completed' and j.data ->> 'runId' = r.id::text
      )
      and not exists (
        select 1 from public.probe_runs busy
        where busy.persona_id = r.persona_id and busy.status = 'running' and (busy.deadline is null or busy.deadline > now())
      )
    order by (r.persona_id = run.persona_id) desc, r.created_at, r.id
    limit 1;
  end if;
  -- A queued run has one job: none is added while one of its own is waiting or under way.
  if next_run.id is not null and not exists (
    select 1 from pgboss.job j
    where j.name = 'persona-tests' and j.state < 'completed' and j.data ->> 'runId' = next_run.id::text
  ) then
    perform private.queue_job('persona-tests',
      jsonb_build_object('runId', next_run.id, 'userId', next_run.user_id, 'personaId', next_run.persona_id), next_run.persona_id::text);
  end if;
  return null;
end;
$$;

revoke execute on function private.queue_probe_run_job() from public, anon, authenticated;

-- A queued run that fails without running (its job's tries spent) frees its creator's turn too.
drop trigger probe_runs_queue_next_job on public.probe_runs;
create trigger probe_runs_queue_next_job
  after update of status on public.probe_runs
  for each row when (old.status in ('queued', 'running') and new.status in ('completed', 'failed'))
  execute function private.queue_probe_run_job();

-- A run deleted with its persona, or a waiting one replaced, frees its creator's turn.
create trigger probe_runs_queue_after_delete
  after delete on public.probe_runs
  for each row when (old.status in ('queued', 'running'))
  execute function private.queue_probe_run_job();
