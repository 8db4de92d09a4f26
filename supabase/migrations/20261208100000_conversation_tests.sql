-- Long-conversation tests (docs/product.md, Persona tests: long conversations): an interrogator
-- plays N turns against one version of a persona in a fresh conversation and scores each category
-- at checkpoints, off the request, as a job.
--
-- - public.conversation_tests: one run of one version; `checkpoints` holds each checkpoint's scores
--   per category and the questions asked there, `transcript` the conversation, `first_failure` the
--   first checkpoint each category failed. Own rows only, as probe_runs; one queued run a persona.
-- - The job is queued with the row, in the same transaction (the job_queue migration's pattern);
--   a run is started through the app only (its quota): POST /api/personas/{id}/conversation-tests.
-- - It says its changes like the persona's own (the tests page reads it with the persona's).
create table public.conversation_tests (
  id uuid primary key default gen_random_uuid(),
  persona_id uuid not null references public.personas (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  version integer not null,
  model text,
  status text not null default 'queued',
  turns integer not null,
  seed bigint not null,
  done integer not null default 0,
  checkpoints jsonb not null default '[]'::jsonb,
  first_failure jsonb not null default '{}'::jsonb,
  transcript jsonb not null default '[]'::jsonb,
  error text,
  created_at timestamp with time zone not null default now(),
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  deadline timestamp with time zone,
  constraint conversation_tests_version_positive check (version >= 1),
  constraint conversation_tests_status_valid check (status = any (array['queued', 'running', 'completed', 'failed']::text[])),
  constraint conversation_tests_turns_valid check (turns between 4 and 60 and done between 0 and turns),
  constraint conversation_tests_seed_valid check (seed between 0 and 2147483647),
  constraint conversation_tests_checkpoints_valid check (jsonb_typeof(checkpoints) = 'array' and octet_length(checkpoints::text) <= 2097152),
  constraint conversation_tests_first_failure_valid check (jsonb_typeof(first_failure) = 'object' and octet_length(first_failure::text) <= 4096),
  constraint conversation_tests_transcript_valid check (jsonb_typeof(transcript) = 'array' and octet_length(transcript::text) <= 2097152),
  constraint conversation_tests_error_length check (char_length(error) <= 500),
  constraint conversation_tests_model_length check (char_length(model) <= 200)
);

alter table public.conversation_tests enable row level security;
create index conversation_tests_persona_id_created_at_idx on public.conversation_tests using btree (persona_id, created_at desc);
create index conversation_tests_user_id_idx on public.conversation_tests using btree (user_id);
create unique index conversation_tests_one_queued_idx on public.conversation_tests using btree (persona_id) where status = 'queued';

create policy "conversation_tests_select_own" on public.conversation_tests as permissive for select to authenticated
  using (user_id = (select auth.uid()));
create policy "conversation_tests_insert_own" on public.conversation_tests as permissive for insert to authenticated
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = conversation_tests.persona_id and p.user_id = (select auth.uid())));
create policy "conversation_tests_update_own" on public.conversation_tests as permissive for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.personas p where p.id = conversation_tests.persona_id and p.user_id = (select auth.uid())));
create policy "conversation_tests_delete_own" on public.conversation_tests as permissive for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.conversation_tests from anon, authenticated;
grant select, insert, update, delete on table public.conversation_tests to authenticated;
grant all on table public.conversation_tests to service_role;

-- conversation-tests: one job per run. Tried again after a crash (retryLimit 2, backoff from 2 s);
-- an attempt still active after 15 minutes counts as crashed. Spent tries go to
-- conversation-tests-failed, whose job records the run as interrupted.
select pgboss.create_queue('conversation-tests-failed', '{"policy":"standard","retryLimit":5,"retryDelay":5,"retryBackoff":true,"expireInSeconds":60}');
select pgboss.create_queue('conversation-tests', '{"policy":"standard","retryLimit":2,"retryDelay":2,"retryBackoff":true,"expireInSeconds":900,"deadLetter":"conversation-tests-failed"}');

create or replace function private.queue_conversation_test_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.outside_app() then
    raise exception 'A long-conversation test is started through the app: POST /api/personas/{id}/conversation-tests' using errcode = '42501';
  end if;
  perform private.queue_job('conversation-tests',
    jsonb_build_object('runId', new.id, 'userId', new.user_id, 'personaId', new.persona_id), new.persona_id::text);
  return null;
end;
$$;

revoke execute on function private.queue_conversation_test_job() from public, anon, authenticated;

create trigger conversation_tests_queue_job
  after insert on public.conversation_tests
  for each row when (new.status = 'queued')
  execute function private.queue_conversation_test_job();

create trigger owner_changed_on_conversation_test
  after insert or update or delete on public.conversation_tests
  for each row execute function private.notify_account_changed();
