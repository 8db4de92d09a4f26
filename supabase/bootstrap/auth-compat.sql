-- What Supabase's Postgres already provides and a plain Postgres (or PGlite) lacks:
-- the API roles, the auth schema with a Supabase-compatible auth.users, and
-- auth.uid() / auth.role() / auth.jwt() reading the request's JWT claims.
--
-- Applied by the app before supabase/migrations on PGlite and on a plain Postgres
-- (DATABASE_URL). Never applied by the Supabase CLI, and every step is guarded, so it
-- changes nothing where Supabase already has these objects.

-- Created only when missing: Postgres checks the privilege before the name, so even an
-- existing role's CREATE fails for a non-superuser (42501 for bypassrls).
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
exception when duplicate_object or unique_violation then null;
end $$;

-- A connecting role that is not a superuser must be able to switch to the API roles.
do $$ begin
  if not (select rolsuper from pg_roles where rolname = current_user)
     and not (pg_has_role(current_user, 'anon', 'member') and pg_has_role(current_user, 'authenticated', 'member')
              and pg_has_role(current_user, 'service_role', 'member')) then
    execute format('grant anon, authenticated, service_role to %I', current_user);
  end if;
end $$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text unique default null,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));
grant all on table auth.users to service_role;

do $$ begin
  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
    language sql stable
    as $fn$
      select nullif(
        coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        ),
        ''
      )::uuid
    $fn$;
  end if;
  if to_regprocedure('auth.role()') is null then
    create function auth.role() returns text
    language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.role', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
      )::text
    $fn$;
  end if;
  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
    language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')
      )::jsonb
    $fn$;
  end if;
  if to_regprocedure('auth.email()') is null then
    create function auth.email() returns text
    language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.email', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'
      )::text
    $fn$;
  end if;
end $$;

grant execute on function auth.uid(), auth.role(), auth.jwt(), auth.email() to anon, authenticated, service_role;

-- The Supabase CLI records applied migrations here; the app does the same.
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

-- Sessions, as in Supabase's auth.sessions: every access token names one (claim
-- session_id), and deleting a user's sessions makes all their tokens stop working.
create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  not_after timestamptz,
  user_agent text,
  ip text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
grant all on table auth.sessions to service_role;

-- One account per address (Supabase: users_email_partial_key).
create unique index if not exists users_email_partial_key on auth.users (lower(email)) where is_sso_user = false;
