-- Hand-written (like private.rate_limits): which third-party identity belongs to which
-- account, for the embedded auth's sign-in with Google, GitHub or an OpenID Connect issuer
-- (ADR 011). Supabase Auth keeps its own (auth.identities); in Supabase mode this table
-- stays empty. One row per (provider, subject): the provider's stable id for the person,
-- never the e-mail, which can change at the provider. Only the auth adapter reads or writes
-- it, through the service-role door: the schema `private` is not exposed by the Data API,
-- RLS is on with no policy, and anon/authenticated get nothing.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;
grant usage on schema private to service_role;

create table if not exists private.oauth_identities (
  provider text not null check (provider ~ '^[a-z0-9_-]{2,30}$'),
  subject text not null check (char_length(subject) between 1 and 255),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The address the provider vouched for when the identity was linked.
  email text not null check (char_length(email) <= 254),
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz not null default now(),
  primary key (provider, subject)
);
create index if not exists oauth_identities_user_id_idx on private.oauth_identities (user_id);

alter table private.oauth_identities enable row level security;
revoke all on table private.oauth_identities from public, anon, authenticated;
grant select, insert, update, delete on table private.oauth_identities to service_role;
