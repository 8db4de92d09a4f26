-- Hand-written around the job queue's own installer: background work is a job on pg-boss
-- (docs/decisions/041-one-job-queue.md).
--
-- 1. The `pgboss` schema, exactly as pg-boss 10.4.2 installs it (schema version 24): the text of
--    `PgBoss.getConstructionPlans('pgboss')` (its documented installer for projects that run their
--    own migrations), without its own BEGIN/COMMIT and advisory lock, since this file already runs
--    in one transaction under the migrations' lock. pg-boss checks the version at start and
--    upgrades the schema itself when a newer release needs it.
-- 2. The queues, made with pg-boss's own `create_queue` (their settings live in `pgboss.queue`).
--    A queued job and the row it is for are written in one transaction: by the triggers below
--    (pg-boss documents inserting jobs with SQL), through private.queue_job.
-- 3. Nobody but the connecting role reaches the queue: the API roles get no usage on the schema.
-- 4. Work is queued through the app only: its doors mark their transactions
--    (`personaforge.door`, which a client of Supabase's API cannot set), and a test run or an
--    image generation written straight through that API, without the quota the app takes, is
--    refused. A run queued by a new version (a trigger below the persona's write) is queued either way.
-- 5. A queued persona test run is a job from the moment its row exists, in the same transaction
--    (pg-boss documents inserting jobs with SQL, triggers included): a run queued by a new
--    version and a run queued by 'Run tests' cannot be lost between the write and the queue.
--    So is a reference-image generation from the moment its image_jobs row says 'generating';
--    the row keeps the address its outcome mail goes to (notify_email), as notification_queue does.
    CREATE SCHEMA IF NOT EXISTS pgboss
  ;

    CREATE TYPE pgboss.job_state AS ENUM (
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed'
    )
  ;

    CREATE TABLE pgboss.version (
      version int primary key,
      maintained_on timestamp with time zone,
      cron_on timestamp with time zone,
      monitored_on timestamp with time zone
    )
  ;

    CREATE TABLE pgboss.queue (
      name text,
      policy text,
      retry_limit int,
      retry_delay int,
      retry_backoff bool,
      expire_seconds int,
      retention_minutes int,
      dead_letter text REFERENCES pgboss.queue (name),
      partition_name text,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.schedule (
      name text REFERENCES pgboss.queue ON DELETE CASCADE,
      cron text not null,
      timezone text,
      data jsonb,
      options jsonb,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.subscription (
      event text not null,
      name text not null REFERENCES pgboss.queue ON DELETE CASCADE,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY(event, name)
    )
  ;

    CREATE TABLE pgboss.job (
      id uuid not null default gen_random_uuid(),
      name text not null,
      priority integer not null default(0),
      data jsonb,
      state pgboss.job_state not null default('created'),
      retry_limit integer not null default(2),
      retry_count integer not null default(0),
      retry_delay integer not null default(0),
      retry_backoff boolean not null default false,
      start_after timestamp with time zone not null default now(),
      started_on timestamp with time zone,
      singleton_key text,
      singleton_on timestamp without time zone,
      expire_in interval not null default interval '15 minutes',
      created_on timestamp with time zone not null default now(),
      completed_on timestamp with time zone,
      keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
      output jsonb,
      dead_letter text,
      policy text
    ) PARTITION BY LIST (name)
  ;
ALTER TABLE pgboss.job ADD PRIMARY KEY (name, id);
CREATE TABLE pgboss.archive (LIKE pgboss.job);
ALTER TABLE pgboss.archive ADD PRIMARY KEY (name, id);
ALTER TABLE pgboss.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
CREATE INDEX archive_i1 ON pgboss.archive(archived_on);

    CREATE FUNCTION pgboss.create_queue(queue_name text, options json)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
      queue_created_on timestamptz;
    BEGIN

      WITH q as (
      INSERT INTO pgboss.queue (
        name,
        policy,
        retry_limit,
        retry_delay,
        retry_backoff,
        expire_seconds,
        retention_minutes,
        dead_letter,
        partition_name
      )
      VALUES (
        queue_name,
        options->>'policy',
        (options->>'retryLimit')::int,
        (options->>'retryDelay')::int,
        (options->>'retryBackoff')::bool,
        (options->>'expireInSeconds')::int,
        (options->>'retentionMinutes')::int,
        options->>'deadLetter',
        table_name
      )
      ON CONFLICT DO NOTHING
      RETURNING created_on
      )
      SELECT created_on into queue_created_on from q;

      IF queue_created_on IS NULL THEN
        RETURN;
      END IF;

      EXECUTE format('CREATE TABLE pgboss.%I (LIKE pgboss.job INCLUDING DEFAULTS)', table_name);

      EXECUTE format('ALTER TABLE pgboss.%1$I ADD PRIMARY KEY (name, id)', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON pgboss.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON pgboss.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
      EXECUTE format('CREATE INDEX %1$s_i5 ON pgboss.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

      EXECUTE format('ALTER TABLE pgboss.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
      EXECUTE format('ALTER TABLE pgboss.job ATTACH PARTITION pgboss.%I FOR VALUES IN (%L)', table_name, queue_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;

    CREATE FUNCTION pgboss.delete_queue(queue_name text)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar;
    BEGIN
      WITH deleted as (
        DELETE FROM pgboss.queue
        WHERE name = queue_name
        RETURNING partition_name
      )
      SELECT partition_name from deleted INTO table_name;

      EXECUTE format('DROP TABLE IF EXISTS pgboss.%I', table_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;
INSERT INTO pgboss.version(version) VALUES ('24');
  

-- persona-tests: one job per queued run, queued when the persona has no run under way, else when
-- that run ends (the triggers below), so a persona's runs go one at a time and no worker waits on
-- another's. A run interrupted by a crash is tried again (retryLimit 2, backoff from 2 s); an
-- attempt still active after 10 minutes counts as crashed. A run whose tries are spent goes to
-- persona-tests-failed, whose job records the run as interrupted.
select pgboss.create_queue('persona-tests-failed', '{"policy":"standard","retryLimit":5,"retryDelay":5,"retryBackoff":true,"expireInSeconds":60}');
select pgboss.create_queue('persona-tests', '{"policy":"standard","retryLimit":2,"retryDelay":2,"retryBackoff":true,"expireInSeconds":600,"deadLetter":"persona-tests-failed"}');

-- reference-images: one job per generation (image_jobs holds one a persona). Tried again once
-- after a crash; an attempt still active after 3 minutes (the generation's own limit is 150 s)
-- counts as crashed. Spent tries go to reference-images-failed, which records the failure.
select pgboss.create_queue('reference-images-failed', '{"policy":"standard","retryLimit":5,"retryDelay":5,"retryBackoff":true,"expireInSeconds":60}');
select pgboss.create_queue('reference-images', '{"policy":"standard","retryLimit":1,"retryDelay":2,"retryBackoff":false,"expireInSeconds":180,"deadLetter":"reference-images-failed"}');

-- notification-digests: a job at the time an event's digest is due sends every digest due then
-- (the events of one creator are taken in one transaction, so two passes never send them twice).
select pgboss.create_queue('notification-digests', '{"policy":"standard","retryLimit":3,"retryDelay":60,"retryBackoff":true,"expireInSeconds":300}');

revoke all on schema pgboss from public;
do $$
declare api_role text;
begin
  foreach api_role in array array['anon', 'authenticated', 'service_role'] loop
    if exists (select 1 from pg_roles where rolname = api_role) then
      execute format('revoke all on schema pgboss from %I', api_role);
      execute format('revoke all on all tables in schema pgboss from %I', api_role);
      execute format('revoke all on all functions in schema pgboss from %I', api_role);
    end if;
  end loop;
end;
$$;
revoke all on all functions in schema pgboss from public;

-- A job on one of the queues above, with the queue's own settings.
create or replace function private.queue_job(queue text, payload jsonb, key text, run_after timestamptz default now())
returns void
language sql
security definer
set search_path = ''
as $$
  insert into pgboss.job (name, data, singleton_key, start_after, policy, retry_limit, retry_delay, retry_backoff, expire_in, dead_letter)
    select q.name, payload, key, run_after, q.policy, q.retry_limit, q.retry_delay, q.retry_backoff,
      q.expire_seconds * interval '1 second', q.dead_letter
    from pgboss.queue q where q.name = queue;
$$;

revoke execute on function private.queue_job(text, jsonb, text, timestamptz) from public, anon, authenticated;

-- Whether this transaction came in through one of the app's doors (app/infra/db/db.server.ts).
create or replace function private.outside_app()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(current_setting('personaforge.door', true), '') <> 'app';
$$;

-- The job of a queued run: at once when no run of the persona is under way (one 'running' past
-- its deadline is not: its worker died), else when that run ends. Both triggers take the
-- persona's row lock first, so a run queued while another ends is not missed by both, and a run
-- whose job is waiting or under way gets no second one.
create or replace function private.queue_probe_run_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare next_run public.probe_runs;
begin
  if tg_op = 'INSERT' and pg_trigger_depth() = 1 and private.outside_app() then
    raise exception 'A test run is started through the app: POST /api/personas/{id}/probes/run' using errcode = '42501';
  end if;
  perform 1 from public.personas p where p.id = new.persona_id for update;
  if tg_op = 'INSERT' then
    if not exists (
      select 1 from public.probe_runs r
      where r.persona_id = new.persona_id and r.status = 'running' and (r.deadline is null or r.deadline > now())
    ) then
      next_run := new;
    end if;
  else
    select * into next_run from public.probe_runs r where r.persona_id = new.persona_id and r.status = 'queued';
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

create trigger probe_runs_queue_job
  after insert on public.probe_runs
  for each row when (new.status = 'queued')
  execute function private.queue_probe_run_job();

create trigger probe_runs_queue_next_job
  after update of status on public.probe_runs
  for each row when (old.status = 'running' and new.status in ('completed', 'failed'))
  execute function private.queue_probe_run_job();

-- The job of a generation: a row that starts 'generating' (a first one, or a new start in place of a
-- failed or abandoned one). The job finds its generation by persona and start time.
alter table public.image_jobs add column notify_email text;
alter table public.image_jobs add constraint image_jobs_notify_email_length check (char_length(notify_email) <= 320);

create or replace function private.queue_image_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'generating' and (tg_op = 'INSERT' or old.started_at is distinct from new.started_at or old.status <> 'generating') then
    if private.outside_app() then
      raise exception 'Reference images are generated through the app: POST /api/personas/{id}/generate-images' using errcode = '42501';
    end if;
    perform private.queue_job('reference-images',
      jsonb_build_object('personaId', new.persona_id, 'userId', new.user_id, 'startedAt', new.started_at), null);
  end if;
  return null;
end;
$$;

revoke execute on function private.queue_image_job() from public, anon, authenticated;

create trigger image_jobs_queue_job
  after insert or update on public.image_jobs
  for each row execute function private.queue_image_job();

-- A digest is due when its oldest event has waited the digest interval (the app's setting, so the
-- row says when: digest_due_at). Each queued event puts a digest job at that time.
alter table public.notification_queue add column digest_due_at timestamp with time zone;

create or replace function private.queue_digest_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_job('notification-digests', '{}'::jsonb, null, coalesce(new.digest_due_at, new.created_at + interval '1 hour'));
  return null;
end;
$$;

revoke execute on function private.queue_digest_job() from public, anon, authenticated;

create trigger notification_queue_queue_digest
  after insert on public.notification_queue
  for each row execute function private.queue_digest_job();
