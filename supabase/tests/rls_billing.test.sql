-- Billing (docs/decisions/005-plans-follow-stripe.md): a creator can never write their own plan, Stripe ids, period end, trial
-- end or cancellation flag, and nobody but the service role (the webhook's door) can read or
-- write the processed Stripe events. Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(17);

create function pg_temp.row_count(statement text) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  execute statement;
  get diagnostics n = row_count;
  return n;
exception when insufficient_privilege then
  return 0;
end;
$$;

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values ('33333333-3333-4333-8333-333333333333', 'authenticated', 'authenticated', 'carol@example.test',
        '{"first_name":"Carol","last_name":"Clark"}', '{"provider":"email"}', now());
insert into public.stripe_events (id, type) values ('evt_existing', 'invoice.paid');

-- ---------------------------------------------------------------- the table itself
select ok(
  (select relrowsecurity from pg_class where oid = 'public.stripe_events'::regclass),
  'stripe_events: row-level security is on'
);
select is(
  (select count(*) from pg_policies where schemaname = 'public' and tablename = 'stripe_events'),
  0::bigint,
  'stripe_events: no policy for any user role'
);
select is(
  (select count(*) from information_schema.role_table_grants
   where table_schema = 'public' and table_name = 'stripe_events' and grantee in ('anon', 'authenticated', 'PUBLIC')),
  0::bigint,
  'stripe_events: no privilege for anon, authenticated or PUBLIC'
);

-- ---------------------------------------------------------------- as Carol
set local role authenticated;
set local request.jwt.claims = '{"sub":"33333333-3333-4333-8333-333333333333","role":"authenticated"}';

select throws_ok(
  $$ update public.profiles set subscription_status = 'active' where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot make herself Premium'
);
select throws_ok(
  $$ update public.profiles set stripe_customer_id = 'cus_forged' where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot set her Stripe customer id'
);
select throws_ok(
  $$ update public.profiles set stripe_subscription_id = 'sub_forged' where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot set her Stripe subscription id'
);
select throws_ok(
  $$ update public.profiles set subscription_expires_at = now() + interval '10 years' where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot move her period end'
);
select throws_ok(
  $$ update public.profiles set trial_ends_at = now() + interval '10 years' where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot extend her trial'
);
select throws_ok(
  $$ update public.profiles set subscription_cancel_at_period_end = true where id = '33333333-3333-4333-8333-333333333333' $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot change the cancellation flag'
);
select throws_ok(
  $$ insert into public.profiles (id, subscription_status) values (gen_random_uuid(), 'active') $$,
  '42501', 'permission denied for table profiles',
  'Carol cannot insert a Premium profile'
);
select is(pg_temp.row_count($$ select * from public.stripe_events $$), 0::bigint, 'Carol reads no processed event');
select is(
  pg_temp.row_count($$ insert into public.stripe_events (id, type) values ('evt_forged', 'checkout.session.completed') $$),
  0::bigint,
  'Carol cannot record an event as processed'
);
select is(pg_temp.row_count($$ delete from public.stripe_events $$), 0::bigint, 'Carol cannot forget processed events (a replay)');

-- ---------------------------------------------------------------- as anon
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';
select is(pg_temp.row_count($$ select * from public.stripe_events $$), 0::bigint, 'anon reads no processed event');
select is(
  pg_temp.row_count($$ insert into public.stripe_events (id, type) values ('evt_anon', 'invoice.paid') $$),
  0::bigint,
  'anon cannot record an event'
);

-- ---------------------------------------------------------------- what really happened
reset role;
reset request.jwt.claims;
select results_eq(
  $$ select subscription_status, stripe_customer_id, stripe_subscription_id, subscription_expires_at, trial_ends_at,
            subscription_cancel_at_period_end
     from public.profiles where id = '33333333-3333-4333-8333-333333333333' $$,
  $$ values ('free'::text, null::text, null::text, null::timestamptz, null::timestamptz, false) $$,
  'Carol''s plan and billing fields are as they were'
);
select results_eq(
  $$ select id from public.stripe_events order by id $$,
  $$ values ('evt_existing'::text) $$,
  'the processed events are as they were'
);

select * from finish();
rollback;
