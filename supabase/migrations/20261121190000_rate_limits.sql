-- Hand-written (drizzle-kit custom migration): the abuse-limit counters (failed sign-ins,
-- account e-mails) when the app runs on a Postgres server, so that several app servers
-- share them. One row per counter; app/infra/web/rate-limit.server.ts upserts it atomically
-- through the service-role door. The schema `private` is not exposed by Supabase's Data
-- API; RLS is on with no policy, and anon/authenticated get nothing, so only the
-- service role (which bypasses RLS) reads or writes it. On PGlite the app keeps these
-- counters in memory, but the table exists there too.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;
grant usage on schema private to service_role;

create table if not exists private.rate_limits (
  key text primary key,
  points integer not null,
  expire timestamptz
);
create index if not exists rate_limits_expire_idx on private.rate_limits (expire);

alter table private.rate_limits enable row level security;
revoke all on table private.rate_limits from public, anon, authenticated;
grant select, insert, update, delete on table private.rate_limits to service_role;
