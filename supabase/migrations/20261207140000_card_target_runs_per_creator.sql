-- Runs in each front end take their creator's turn like test runs (docs/deployment.md, Background
-- work): at most personaforge.test_runs_per_creator (2 when unset) of one creator's have a job at
-- once; the others wait as 'queued', and the oldest gets its job when one of that creator's ends or
-- is deleted.

-- How many of a creator's runs in each front end are under way: running (not past its deadline),
-- or queued with a job waiting or under way.
create or replace function private.card_target_runs_under_way(creator uuid, other_than uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from public.card_target_runs r
  where r.user_id = creator and r.id is distinct from other_than and (
    (r.status = 'running' and (r.deadline is null or r.deadline > now()))
    or (r.status = 'queued' and exists (
      select 1 from pgboss.job j
      where j.name = 'card-target-tests' and j.state < 'completed' and j.data ->> 'runId' = r.id::text
    ))
  );
$$;

revoke execute on function private.card_target_runs_under_way(uuid, uuid) from public, anon, authenticated;

create or replace function private.queue_card_target_run_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  run public.card_target_runs;
  next_run public.card_target_runs;
begin
  if tg_op = 'INSERT' and pg_trigger_depth() = 1 and private.outside_app() then
    raise exception 'A run in each front end is started through the app: POST /api/personas/{id}/survival/run' using errcode = '42501';
  end if;
  run := case when tg_op = 'DELETE' then old else new end;
  perform pg_advisory_xact_lock(hashtextextended('personaforge.card-target-runs:' || run.user_id::text, 0));
  if tg_op = 'INSERT' then
    if private.card_target_runs_under_way(new.user_id, new.id) < private.test_runs_per_creator() then
      next_run := new;
    end if;
  elsif private.card_target_runs_under_way(run.user_id, null) < private.test_runs_per_creator() then
    select r.* into next_run from public.card_target_runs r
    where r.user_id = run.user_id and r.status = 'queued'
      and not exists (
        select 1 from pgboss.job j
        where j.name = 'card-target-tests' and j.state < 'completed' and j.data ->> 'runId' = r.id::text
      )
    order by r.created_at, r.id
    limit 1;
  end if;
  if next_run.id is not null and not exists (
    select 1 from pgboss.job j
    where j.name = 'card-target-tests' and j.state < 'completed' and j.data ->> 'runId' = next_run.id::text
  ) then
    perform private.queue_job('card-target-tests',
      jsonb_build_object('runId', next_run.id, 'userId', next_run.user_id, 'personaId', next_run.persona_id), next_run.persona_id::text);
  end if;
  return null;
end;
$$;

revoke execute on function private.queue_card_target_run_job() from public, anon, authenticated;

create trigger card_target_runs_queue_next_job
  after update of status on public.card_target_runs
  for each row when (old.status in ('queued', 'running') and new.status in ('completed', 'failed'))
  execute function private.queue_card_target_run_job();

create trigger card_target_runs_queue_after_delete
  after delete on public.card_target_runs
  for each row when (old.status in ('queued', 'running'))
  execute function private.queue_card_target_run_job();
