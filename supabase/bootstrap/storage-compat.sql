-- What Supabase Storage already provides in the database and a plain Postgres (or PGlite)
-- lacks: the `storage` schema with buckets and objects (the columns the policies and the
-- app's migrations use, shaped like storage-api's tables) and storage.foldername(). Enough for
-- the reference-images migration and its pgTAP policy tests to run anywhere.
--
-- Applied after auth-compat.sql by the app (PGlite, plain Postgres) and by .ci/pgtap.sh.
-- Never applied by the Supabase CLI, and every step is guarded, so it changes nothing where
-- Supabase Storage has created these objects.

create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now()
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- storage-api's own definition: the folders of an object's name, without the file.
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

grant all on table storage.buckets, storage.objects to service_role;
grant select, insert, update, delete on table storage.objects to authenticated;
grant select on table storage.buckets to authenticated;
grant select on table storage.buckets, storage.objects to anon;
