-- Hand-written: a lorebook version stores what changed, not a copy (docs/product.md, Lore and
-- History; docs/decisions/028-a-lorebook-kept-with-the-persona.md).
--
-- - public.persona_lore_entries: each distinct entry of a persona's lorebook, stored once, found by
--   the md5 of its canonical text (jsonb's). Entries are never changed: an edit is a new entry. Only
--   record_persona_version() writes here; the owner reads their personas' entries; nobody else.
-- - persona_versions.lore now holds the lorebook without its entries (its settings), and
--   persona_versions.lore_entries the ids of its entries in order. Toggling one entry of a 200-entry
--   lorebook adds one entry (once) and a list of 200 four-byte ids per version, instead of the whole lorebook.
--   A version whose lore has no entry list keeps lore whole and lore_entries null.
-- - public.persona_version_lore() puts a version's lorebook back together, as it was.
create table public.persona_lore_entries (
  id integer generated always as identity primary key,
  persona_id uuid not null references public.personas (id) on delete cascade,
  user_id uuid not null,
  digest bytea not null,
  entry jsonb not null,
  created_at timestamptz not null default now(),
  constraint persona_lore_entries_digest_valid check (octet_length(digest) = 16),
  constraint persona_lore_entries_entry_valid check (octet_length(entry::text) <= 2097152)
);
create unique index persona_lore_entries_persona_digest_idx on public.persona_lore_entries (persona_id, digest);
alter table public.persona_lore_entries enable row level security;
create policy "persona_lore_entries_select_own" on public.persona_lore_entries as permissive for select to authenticated
  using (user_id = (select auth.uid()));
revoke all on table public.persona_lore_entries from public, anon, authenticated, service_role;
grant select on table public.persona_lore_entries to authenticated, service_role;
-- It says its own changes like every table a read may depend on (docs/decisions/023-kept-reads-
-- declared-and-heard-everywhere.md). History's kept reads need not declare it: an entry is written
-- only with the version that first holds it, in the same statement, and never changed after, so the
-- notice of public.persona_versions already says every change a reader could see.
create trigger owner_changed_on_persona_lore_entry
  after insert or update or delete on public.persona_lore_entries
  for each row execute function private.notify_account_changed();

alter table public.persona_versions add column lore_entries integer[];

-- A version's lorebook as it was: its settings with its entries put back in order; null where the
-- version does not hold a lorebook. Runs as the caller, so the policies above decide what it reads.
create or replace function public.persona_version_lore(persona_id uuid, lore jsonb, lore_entries integer[])
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when lore is null then null
    when lore_entries is null then lore
    else lore || jsonb_build_object('entries', coalesce((
      select jsonb_agg(le.entry order by x.ord)
      from unnest(lore_entries) with ordinality as x(id, ord)
      join public.persona_lore_entries le on le.id = x.id and le.persona_id = persona_version_lore.persona_id
    ), '[]'::jsonb))
  end
$$;
revoke execute on function public.persona_version_lore(uuid, jsonb, integer[]) from public, anon;
grant execute on function public.persona_version_lore(uuid, jsonb, integer[]) to authenticated, service_role;

create or replace function public.record_persona_version()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  hint text := coalesce(current_setting('personaforge.version_kind', true), '');
  hinted_from text := coalesce(current_setting('personaforge.restored_from', true), '');
  next_version integer := 1;
  prev_backstory integer;
  prev_narrative integer;
  change_kind text;
  from_version integer;
  store_backstory boolean := true;
  store_narrative boolean := true;
  stored_lore jsonb := new.lore;
  lore_ids integer[];
begin
  if tg_op = 'UPDATE' then
    select v.version, v.backstory_version, v.narrative_version
      into next_version, prev_backstory, prev_narrative
      from public.persona_versions v
      where v.persona_id = new.id
      order by v.version desc
      limit 1;
    if next_version is null then
      next_version := 1;
    else
      next_version := next_version + 1;
      store_backstory := new.backstory is distinct from old.backstory;
      store_narrative := new.narrative is distinct from old.narrative;
    end if;
  end if;

  if tg_op = 'INSERT' then
    change_kind := case
      when hint = 'imported' then 'imported'
      when new.status = 'in_progress' then 'draft_saved'
      else 'created'
    end;
  elsif hint = 'restored' and hinted_from ~ '^[0-9]{1,9}$' and hinted_from::integer between 1 and next_version - 1 then
    change_kind := 'restored';
    from_version := hinted_from::integer;
  elsif old.status = 'in_progress' and new.status <> 'in_progress' then
    change_kind := 'draft_completed';
  elsif new.status = 'in_progress' then
    change_kind := 'draft_saved';
  elsif (old.name, old.type, old.gender, old.age_range, old.interests, old.description, old.personality,
         old.backstory, old.narrative, old.voice, old.extended, old.lore, coalesce(old.status_before_archive, old.status) = 'in_progress')
        is not distinct from
        (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
         new.backstory, new.narrative, new.voice, new.extended, new.lore, coalesce(new.status_before_archive, new.status) = 'in_progress') then
    change_kind := 'image';
  else
    change_kind := 'edited';
  end if;

  -- A hint serves one write only.
  if hint <> '' then
    perform set_config('personaforge.version_kind', '', true);
    perform set_config('personaforge.restored_from', '', true);
  end if;

  -- The lorebook's entries are stored once per persona and referenced, in order, by their ids.
  if jsonb_typeof(new.lore->'entries') = 'array' then
    insert into public.persona_lore_entries (persona_id, user_id, digest, entry)
      select distinct on (x.digest) new.id, new.user_id, x.digest, x.entry
      from (select decode(md5(e::text), 'hex') as digest, e as entry
            from jsonb_array_elements(new.lore->'entries') as e) x
      on conflict (persona_id, digest) do nothing;
    select coalesce(array_agg(le.id order by x.ord), '{}'::integer[])
      into lore_ids
      from jsonb_array_elements(new.lore->'entries') with ordinality as x(entry, ord)
      join public.persona_lore_entries le
        on le.persona_id = new.id and le.digest = decode(md5(x.entry::text), 'hex');
    stored_lore := new.lore - 'entries';
  end if;

  insert into public.persona_versions (
    persona_id, user_id, version, kind, restored_from, changed_by,
    name, type, gender, age_range, interests, description, personality,
    backstory, backstory_version, narrative, narrative_version,
    image_url, secondary_image_url, image_style, status, status_before_archive, voice, extended, lore, lore_entries
  ) values (
    new.id, new.user_id, next_version, change_kind, from_version, auth.uid(),
    new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
    case when store_backstory then new.backstory end,
    case when store_backstory then next_version else prev_backstory end,
    case when store_narrative then new.narrative end,
    case when store_narrative then next_version else prev_narrative end,
    new.image_url, new.secondary_image_url, new.image_style, new.status, new.status_before_archive, new.voice, new.extended, stored_lore, lore_ids
  );
  return null;
end;
$$;

-- Versions written before: their entries move to the shared store.
insert into public.persona_lore_entries (persona_id, user_id, digest, entry)
  select distinct on (v.persona_id, decode(md5(e::text), 'hex')) v.persona_id, v.user_id, decode(md5(e::text), 'hex'), e
  from public.persona_versions v, jsonb_array_elements(v.lore->'entries') as e
  where jsonb_typeof(v.lore->'entries') = 'array'
  on conflict (persona_id, digest) do nothing;
update public.persona_versions v
  set lore_entries = (
        select coalesce(array_agg(le.id order by x.ord), '{}'::integer[])
        from jsonb_array_elements(v.lore->'entries') with ordinality as x(entry, ord)
        join public.persona_lore_entries le on le.persona_id = v.persona_id and le.digest = decode(md5(x.entry::text), 'hex')
      ),
      lore = v.lore - 'entries'
  where jsonb_typeof(v.lore->'entries') = 'array';
