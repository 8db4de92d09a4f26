-- Hand-written: a persona's history holds what the card check changed (docs/cards.md, Card check;
-- docs/product.md, History).
--
-- - persona_versions.card_meta: what an imported card carried that the persona does not model
--   (personas.card_meta), stored in a version only when it changed (null: as in the version
--   before). A restore brings back the card data of the newest version at or before the one
--   restored that holds it; versions written before this hold none, and a restore to them keeps
--   the current card data.
-- - persona_versions.note: one line the change says of itself ('Card check: …'), set for one
--   write with set_config('personaforge.version_note', …, true) and shown in history as the
--   version's summary; at most 300 characters.
-- - A change of card_meta alone is a version ('Edited'): the trigger fires on it.
alter table public.persona_versions add column card_meta jsonb;
alter table public.persona_versions add column note text;
alter table public.persona_versions add constraint persona_versions_note_valid
  check (note is null or char_length(note) between 1 and 300);
alter table public.persona_versions add constraint persona_versions_card_meta_valid
  check (card_meta is null or (jsonb_typeof(card_meta) = 'object' and octet_length(card_meta::text) <= 2097152));

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
  version_note text := nullif(left(coalesce(current_setting('personaforge.version_note', true), ''), 300), '');
  store_card_meta boolean := true;
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
      store_card_meta := new.card_meta is distinct from old.card_meta;
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
         old.backstory, old.narrative, old.voice, old.extended, old.lore, old.card_meta,
         coalesce(old.status_before_archive, old.status) = 'in_progress')
        is not distinct from
        (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
         new.backstory, new.narrative, new.voice, new.extended, new.lore, new.card_meta,
         coalesce(new.status_before_archive, new.status) = 'in_progress') then
    change_kind := 'image';
  else
    change_kind := 'edited';
  end if;

  -- A hint serves one write only.
  if hint <> '' then
    perform set_config('personaforge.version_kind', '', true);
    perform set_config('personaforge.restored_from', '', true);
  end if;
  if version_note is not null then
    perform set_config('personaforge.version_note', '', true);
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
    image_url, secondary_image_url, image_style, status, status_before_archive, voice, extended, lore, lore_entries,
    card_meta, note
  ) values (
    new.id, new.user_id, next_version, change_kind, from_version, auth.uid(),
    new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
    case when store_backstory then new.backstory end,
    case when store_backstory then next_version else prev_backstory end,
    case when store_narrative then new.narrative end,
    case when store_narrative then next_version else prev_narrative end,
    new.image_url, new.secondary_image_url, new.image_style, new.status, new.status_before_archive, new.voice, new.extended, stored_lore, lore_ids,
    case when store_card_meta then new.card_meta end, version_note
  );
  return null;
end;
$$;

drop trigger personas_record_version_update on public.personas;
create trigger personas_record_version_update
  after update on public.personas
  for each row
  when (
    (old.name, old.type, old.gender, old.age_range, old.interests, old.description, old.personality,
     old.backstory, old.narrative, old.image_url, old.secondary_image_url, old.image_style, old.voice, old.extended, old.lore, old.card_meta,
     coalesce(old.status_before_archive, old.status) = 'in_progress')
    is distinct from
    (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
     new.backstory, new.narrative, new.image_url, new.secondary_image_url, new.image_style, new.voice, new.extended, new.lore, new.card_meta,
     coalesce(new.status_before_archive, new.status) = 'in_progress')
  )
  execute function public.record_persona_version();

-- Until now a persona's card data was written once, at import: every version of an imported
-- persona had the data it has today, so its first version holds it.
update public.persona_versions v
  set card_meta = p.card_meta
  from public.personas p
  where v.persona_id = p.id
    and p.card_meta is not null
    and v.version = (select min(w.version) from public.persona_versions w where w.persona_id = p.id);
