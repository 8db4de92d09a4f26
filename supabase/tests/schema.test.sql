-- Schema-wide guarantees: RLS on every public table, policies only for authenticated and
-- never unconditional, exact privileges for anon and authenticated, and the sign-up trigger
-- that creates a profile (from the sign-up metadata) and default notification preferences.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(78);

-- ---------------------------------------------------------------- tables and RLS
-- A new table makes this fail on purpose: give it RLS, grants and its own rls_*.test.sql.
select tables_are(
  'public',
  array['card_target_runs', 'chat_messages', 'conversation_tests', 'generations', 'image_jobs', 'notification_preferences', 'notification_queue', 'persona_lore_entries',
        'persona_probes', 'persona_versions', 'personas', 'probe_runs', 'profiles', 'stripe_events'],
  'public holds exactly the fourteen tables these tests cover'
);
select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity $$,
  'row-level security is enabled on every table in public'
);
select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('v', 'm', 'f') $$,
  'public has no views, materialized views or foreign tables (they would bypass RLS)'
);

-- ---------------------------------------------------------------- the job queue
select ok(
  not has_schema_privilege('anon', 'pgboss', 'usage') and not has_schema_privilege('authenticated', 'pgboss', 'usage')
    and not has_schema_privilege('service_role', 'pgboss', 'usage'),
  'the job queue (schema pgboss) is out of reach of the API roles'
);
select ok(
  not has_function_privilege('authenticated', 'private.queue_job(text, jsonb, text, timestamptz)', 'execute')
    and not has_function_privilege('anon', 'private.queue_job(text, jsonb, text, timestamptz)', 'execute'),
  'nobody queues a job by hand through the API'
);

-- ---------------------------------------------------------------- policies
select policies_are('public', 'profiles',
  array['profiles_select_own', 'profiles_insert_own', 'profiles_update_own', 'profiles_delete_own'],
  'profiles has exactly its four own-row policies');
select policies_are('public', 'personas',
  array['personas_select_own', 'personas_insert_own', 'personas_update_own', 'personas_delete_own'],
  'personas has exactly its four own-row policies');
select policies_are('public', 'chat_messages',
  array['chat_messages_select_own', 'chat_messages_insert_own', 'chat_messages_update_own', 'chat_messages_delete_own'],
  'chat_messages has exactly its four own-row policies');
select policies_are('public', 'notification_preferences',
  array['notification_preferences_select_own', 'notification_preferences_insert_own',
        'notification_preferences_update_own', 'notification_preferences_delete_own'],
  'notification_preferences has exactly its four own-row policies');
select policies_are('public', 'generations',
  array['generations_select_own', 'generations_insert_own'],
  'generations has only its select and insert own-row policies (history is never rewritten)');
select policies_are('public', 'persona_versions',
  array['persona_versions_select_own'],
  'persona_versions has only its select policy (the trigger alone writes it)');
select policies_are('public', 'persona_lore_entries',
  array['persona_lore_entries_select_own'],
  'persona_lore_entries has only its select policy (the version trigger alone writes it)');
select policies_are('public', 'image_jobs',
  array['image_jobs_select_own', 'image_jobs_insert_own', 'image_jobs_update_own', 'image_jobs_delete_own'],
  'image_jobs has exactly its four own-row policies');
select policies_are('public', 'notification_queue',
  array['notification_queue_select_own'],
  'notification_queue has only its select policy (the server alone writes it)');
select policies_are('public', 'persona_probes',
  array['persona_probes_select_own', 'persona_probes_insert_own', 'persona_probes_update_own', 'persona_probes_delete_own'],
  'persona_probes has exactly its four own-persona policies');
select policies_are('public', 'card_target_runs',
  array['card_target_runs_select_own', 'card_target_runs_insert_own', 'card_target_runs_update_own', 'card_target_runs_delete_own'],
  'card_target_runs has exactly its four own-row policies');
select policies_are('public', 'conversation_tests',
  array['conversation_tests_select_own', 'conversation_tests_insert_own', 'conversation_tests_update_own', 'conversation_tests_delete_own'],
  'conversation_tests has exactly its four own-row policies');
select policies_are('public', 'probe_runs',
  array['probe_runs_select_own', 'probe_runs_insert_own', 'probe_runs_update_own', 'probe_runs_delete_own'],
  'probe_runs has exactly its four own-row policies');
select is_empty(
  $$ select tablename, policyname from pg_policies
     where schemaname = 'public' and roles <> array['authenticated']::name[] $$,
  'every policy in public applies to authenticated only (never anon or public)'
);
select is_empty(
  $$ select tablename, policyname from pg_policies
     where schemaname = 'public'
       and ((qual is not null and qual !~ 'auth\.uid\(\)')
            or (with_check is not null and with_check !~ 'auth\.uid\(\)')) $$,
  'every condition of every policy in public is keyed on auth.uid()'
);

-- ---------------------------------------------------------------- privileges
select table_privs_are('public', 'profiles', 'anon', array[]::text[], 'anon has no privilege on profiles');
select table_privs_are('public', 'personas', 'anon', array[]::text[], 'anon has no privilege on personas');
select table_privs_are('public', 'chat_messages', 'anon', array[]::text[], 'anon has no privilege on chat_messages');
select table_privs_are('public', 'notification_preferences', 'anon', array[]::text[],
  'anon has no privilege on notification_preferences');
select table_privs_are('public', 'generations', 'anon', array[]::text[], 'anon has no privilege on generations');
select table_privs_are('public', 'persona_versions', 'anon', array[]::text[], 'anon has no privilege on persona_versions');
select table_privs_are('public', 'persona_lore_entries', 'anon', array[]::text[], 'anon has no privilege on persona_lore_entries');
select table_privs_are('public', 'image_jobs', 'anon', array[]::text[], 'anon has no privilege on image_jobs');
select table_privs_are('public', 'notification_queue', 'anon', array[]::text[], 'anon has no privilege on notification_queue');
select table_privs_are('public', 'persona_probes', 'anon', array[]::text[], 'anon has no privilege on persona_probes');
select table_privs_are('public', 'probe_runs', 'anon', array[]::text[], 'anon has no privilege on probe_runs');
select table_privs_are('public', 'card_target_runs', 'anon', array[]::text[], 'anon has no privilege on card_target_runs');
select table_privs_are('public', 'conversation_tests', 'anon', array[]::text[], 'anon has no privilege on conversation_tests');
select is_empty(
  $$ select c.relname, a.attname from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = 'public' and c.relkind in ('r', 'p')
       and has_column_privilege('anon', c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES') $$,
  'anon has no column privilege on any table in public'
);

select table_privs_are('public', 'profiles', 'authenticated', array['SELECT'],
  'authenticated may only select profiles at table level');
select set_eq(
  $$ select a.attname::text from pg_attribute a
     where a.attrelid = 'public.profiles'::regclass and a.attnum > 0 and not a.attisdropped
       and has_column_privilege('authenticated', a.attrelid, a.attnum, 'UPDATE') $$,
  array['first_name', 'last_name', 'profile_image_url'],
  'authenticated may update only first_name, last_name and profile_image_url on profiles'
);
select ok(
  not has_column_privilege('authenticated', 'public.profiles', 'subscription_status', 'UPDATE')
  and not has_column_privilege('authenticated', 'public.profiles', 'personas_created', 'UPDATE'),
  'authenticated cannot update subscription_status or personas_created'
);
select table_privs_are('public', 'personas', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete personas (RLS picks the rows)');
select table_privs_are('public', 'chat_messages', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete chat_messages (RLS picks the rows)');
select table_privs_are('public', 'generations', 'authenticated', array['SELECT', 'INSERT'],
  'authenticated may only select and insert generations');
select table_privs_are('public', 'persona_versions', 'authenticated', array['SELECT'],
  'authenticated may only select persona_versions (no insert, update or delete)');
select table_privs_are('public', 'persona_lore_entries', 'authenticated', array['SELECT'],
  'authenticated may only select persona_lore_entries (no insert, update or delete)');
select ok(
  not has_function_privilege('anon', 'public.persona_version_lore(uuid, jsonb, integer[])', 'EXECUTE')
  and (select not prosecdef from pg_proc where oid = 'public.persona_version_lore(uuid, jsonb, integer[])'::regprocedure),
  'persona_version_lore runs as its caller (the policies decide what it reads), and not for anon'
);
select table_privs_are('public', 'image_jobs', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete image_jobs (RLS picks the rows)');
select table_privs_are('public', 'notification_queue', 'authenticated', array['SELECT'],
  'authenticated may only select notification_queue (no insert, update or delete)');
select table_privs_are('public', 'persona_probes', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete persona_probes (RLS picks the rows)');
select table_privs_are('public', 'probe_runs', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete probe_runs (RLS picks the rows)');
select table_privs_are('public', 'card_target_runs', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete card_target_runs (RLS picks the rows)');
select table_privs_are('public', 'conversation_tests', 'authenticated', array['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  'authenticated may select, insert, update and delete conversation_tests (RLS picks the rows)');
select ok(
  (select prosecdef and proconfig @> array['search_path=""'] from pg_proc
   where oid = 'private.queue_probe_run()'::regprocedure)
  and not has_function_privilege('authenticated', 'private.queue_probe_run()', 'EXECUTE')
  and not has_function_privilege('anon', 'private.queue_probe_run()', 'EXECUTE'),
  'queue_probe_run() is security definer with an empty search_path, callable by neither anon nor authenticated'
);
select table_privs_are('public', 'notification_preferences', 'authenticated', array['SELECT'],
  'authenticated may only select notification_preferences at table level');
select set_eq(
  $$ select a.attname::text from pg_attribute a
     where a.attrelid = 'public.notification_preferences'::regclass and a.attnum > 0 and not a.attisdropped
       and has_column_privilege('authenticated', a.attrelid, a.attnum, 'UPDATE') $$,
  array['persona_creation', 'narrative_generation', 'image_generation', 'marketing_emails'],
  'authenticated may update only the four toggles on notification_preferences'
);
select ok(
  not has_function_privilege('authenticated', 'public.handle_new_user()', 'EXECUTE')
  and not has_function_privilege('anon', 'public.handle_new_user()', 'EXECUTE'),
  'neither anon nor authenticated may call handle_new_user() directly'
);
select ok(
  (select prosecdef and proconfig @> array['search_path=""'] from pg_proc
   where oid = 'public.handle_new_user()'::regprocedure),
  'handle_new_user() is security definer with an empty search_path'
);
select ok(
  (select prosecdef and proconfig @> array['search_path=""'] from pg_proc
   where oid = 'public.record_persona_version()'::regprocedure)
  and not has_function_privilege('authenticated', 'public.record_persona_version()', 'EXECUTE')
  and not has_function_privilege('anon', 'public.record_persona_version()', 'EXECUTE'),
  'record_persona_version() is security definer with an empty search_path, callable by neither anon nor authenticated'
);

-- ---------------------------------------------------------------- persona tests: the column and the triggers
select col_type_is('public', 'chat_messages', 'persona_version', 'integer',
  'chat_messages.persona_version is an integer (the version a reply was written with)');
select col_is_null('public', 'chat_messages', 'persona_version',
  'chat_messages.persona_version may be null (older messages, the creator''s own)');
select col_has_check('public', 'chat_messages', 'persona_version',
  'chat_messages.persona_version is checked (a version is at least 1)');
select trigger_is('public', 'persona_versions', 'persona_versions_queue_probe_run', 'private', 'queue_probe_run',
  'a new persona version runs private.queue_probe_run()');
select is(
  (select pg_get_triggerdef(oid) from pg_trigger
   where tgrelid = 'public.persona_versions'::regclass and tgname = 'persona_versions_queue_probe_run'),
  'CREATE TRIGGER persona_versions_queue_probe_run AFTER INSERT ON public.persona_versions FOR EACH ROW EXECUTE FUNCTION private.queue_probe_run()',
  'persona_versions_queue_probe_run fires after insert, for each row'
);
select trigger_is('public', 'probe_runs', 'owner_changed_on_probe_run', 'private', 'notify_account_changed',
  'a run''s changes send its owner''s change notice');
select is(
  (select pg_get_triggerdef(oid) from pg_trigger
   where tgrelid = 'public.probe_runs'::regclass and tgname = 'owner_changed_on_probe_run'),
  'CREATE TRIGGER owner_changed_on_probe_run AFTER INSERT OR DELETE OR UPDATE ON public.probe_runs FOR EACH ROW EXECUTE FUNCTION private.notify_account_changed()',
  'owner_changed_on_probe_run fires after insert, update and delete, for each row'
);
select trigger_is('public', 'card_target_runs', 'owner_changed_on_card_target_run', 'private', 'notify_account_changed',
  'a run in each front end sends its owner''s change notice');
select is(
  (select pg_get_triggerdef(oid) from pg_trigger
   where tgrelid = 'public.card_target_runs'::regclass and tgname = 'owner_changed_on_card_target_run'),
  'CREATE TRIGGER owner_changed_on_card_target_run AFTER INSERT OR DELETE OR UPDATE ON public.card_target_runs FOR EACH ROW EXECUTE FUNCTION private.notify_account_changed()',
  'owner_changed_on_card_target_run fires after insert, update and delete, for each row'
);
select trigger_is('public', 'conversation_tests', 'owner_changed_on_conversation_test', 'private', 'notify_account_changed',
  'a long-conversation test sends its owner''s change notice');
select is(
  (select pg_get_triggerdef(oid) from pg_trigger
   where tgrelid = 'public.conversation_tests'::regclass and tgname = 'owner_changed_on_conversation_test'),
  'CREATE TRIGGER owner_changed_on_conversation_test AFTER INSERT OR DELETE OR UPDATE ON public.conversation_tests FOR EACH ROW EXECUTE FUNCTION private.notify_account_changed()',
  'owner_changed_on_conversation_test fires after insert, update and delete, for each row'
);
select trigger_is('public', 'probe_runs', 'probe_runs_queue_after_delete', 'private', 'queue_probe_run_job',
  'a run deleted while queued or under way frees its creator''s turn');
select is(private.test_runs_per_creator(), 2, 'two of a creator''s test runs are under way at once when nothing is set');

-- ---------------------------------------------------------------- auth helpers
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';
select is(
  concat_ws(' ', auth.uid(), auth.role(), current_user),
  '11111111-1111-4111-8111-111111111111 authenticated authenticated',
  'auth.uid() and auth.role() read request.jwt.claims'
);
reset role;
reset request.jwt.claims;

-- ---------------------------------------------------------------- the sign-up trigger
insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('33333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'carol@example.test',
   '{"first_name":"  Carol  ","last_name":"","avatar_url":"https://example.test/carol.png"}',
   '{"provider":"google"}', now()),
  ('44444444-4444-4444-8444-444444444444', 'authenticated', 'authenticated', 'dave@example.test',
   null, null, null),
  ('55555555-5555-4555-8555-555555555555', 'authenticated', 'authenticated', 'erin@example.test',
   jsonb_build_object('first_name', repeat('E', 70), 'last_name', repeat('x', 61)), '{"provider":"email"}', now());

select results_eq(
  $$ select first_name, last_name, profile_image_url, auth_method, subscription_status, personas_created,
            stripe_customer_id, stripe_subscription_id, subscription_expires_at
     from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values ('Alice'::text, 'Archer'::text, null::text, 'email'::text, 'free'::text, 0,
             null::text, null::text, null::timestamptz) $$,
  'sign-up: the profile carries the metadata names, email auth, the free plan and a zero counter'
);
select results_eq(
  $$ select persona_creation, narrative_generation, image_generation, marketing_emails
     from public.notification_preferences where user_id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values (true, true, true, false) $$,
  'sign-up: notification preferences default to on, marketing off'
);
select results_eq(
  $$ select first_name, last_name, profile_image_url, auth_method
     from public.profiles where id = '33333333-3333-4333-8333-333333333333' $$,
  $$ values ('Carol'::text, null::text, 'https://example.test/carol.png'::text, 'google'::text) $$,
  'sign-up: names are trimmed, blanks become null, avatar and provider are kept'
);
select results_eq(
  $$ select first_name, last_name, profile_image_url, auth_method
     from public.profiles where id = '44444444-4444-4444-8444-444444444444' $$,
  $$ values (null::text, null::text, null::text, 'email'::text) $$,
  'sign-up: without metadata the names are null and auth_method defaults to email'
);
select results_eq(
  $$ select char_length(first_name), char_length(last_name)
     from public.profiles where id = '55555555-5555-4555-8555-555555555555' $$,
  $$ values (60, 60) $$,
  'sign-up: over-long names are cut to 60 characters instead of failing the sign-up'
);
select is(
  (select count(*) from public.profiles
   where id in ('11111111-1111-4111-8111-111111111111', '33333333-3333-4333-8333-333333333333',
                '44444444-4444-4444-8444-444444444444', '55555555-5555-4555-8555-555555555555')),
  4::bigint,
  'sign-up: exactly one profile per new user'
);
select is(
  (select count(*) from public.notification_preferences
   where user_id in ('11111111-1111-4111-8111-111111111111', '33333333-3333-4333-8333-333333333333',
                     '44444444-4444-4444-8444-444444444444', '55555555-5555-4555-8555-555555555555')),
  4::bigint,
  'sign-up: exactly one notification_preferences row per new user'
);

-- ---------------------------------------------------------------- account deletion
insert into public.personas (id, user_id, name) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria');
insert into public.chat_messages (persona_id, role, content) values
  ('a0000000-0000-4000-8000-000000000001', 'user', 'Hello Aria');
delete from auth.users where id = '11111111-1111-4111-8111-111111111111';
select is_empty(
  $$ select id from public.profiles where id = '11111111-1111-4111-8111-111111111111'
     union all select user_id from public.notification_preferences where user_id = '11111111-1111-4111-8111-111111111111'
     union all select id from public.personas where user_id = '11111111-1111-4111-8111-111111111111'
     union all select id from public.chat_messages where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'deleting an auth user removes their profile, preferences, personas and messages'
);
select is(
  (select count(*) from public.profiles where id = '33333333-3333-4333-8333-333333333333'),
  1::bigint,
  '... and nobody else''s'
);

select * from finish();
rollback;
