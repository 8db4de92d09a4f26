-- Hand-written: a persona's lorebook (docs/product.md, Lore) and its place in history.
--
-- - personas.lore: the lorebook as one object, { entries: [...], book: {...} } (app/domain/lorebook.ts
--   checks each entry and the 200-entry limit; the database bounds the whole); '{}' when there is none.
--   It is a column of the persona, so the personas policies (owner reads and writes; nobody else)
--   guard it as they guard the persona's other data.
-- - persona_versions.lore: each version holds the lorebook as it was, so an edit of the lorebook is a
--   version in history that can be compared entry by entry and restored. Versions written before
--   this hold null there.
-- - chat_messages.lore: the entries a reply drew on, as [{ id, name }] (the names as they were then),
--   so 'Lore used' can be shown on the reply later; null when it drew on none.
-- - record_persona_version() and the update trigger count a change of the lorebook as a change of
--   what a version holds.
alter table public.personas add column lore jsonb not null default '{}'::jsonb;
alter table public.personas add constraint personas_lore_valid
  check (jsonb_typeof(lore) = 'object' and octet_length(lore::text) <= 2097152);

alter table public.persona_versions add column lore jsonb;

alter table public.chat_messages add column lore jsonb;
alter table public.chat_messages add constraint chat_messages_lore_valid
  check (lore is null or (jsonb_typeof(lore) = 'array' and octet_length(lore::text) <= 65536));

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

  insert into public.persona_versions (
    persona_id, user_id, version, kind, restored_from, changed_by,
    name, type, gender, age_range, interests, description, personality,
    backstory, backstory_version, narrative, narrative_version,
    image_url, secondary_image_url, image_style, status, status_before_archive, voice, extended, lore
  ) values (
    new.id, new.user_id, next_version, change_kind, from_version, auth.uid(),
    new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
    case when store_backstory then new.backstory end,
    case when store_backstory then next_version else prev_backstory end,
    case when store_narrative then new.narrative end,
    case when store_narrative then next_version else prev_narrative end,
    new.image_url, new.secondary_image_url, new.image_style, new.status, new.status_before_archive, new.voice, new.extended, new.lore
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
     old.backstory, old.narrative, old.image_url, old.secondary_image_url, old.image_style, old.voice, old.extended, old.lore,
     coalesce(old.status_before_archive, old.status) = 'in_progress')
    is distinct from
    (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
     new.backstory, new.narrative, new.image_url, new.secondary_image_url, new.image_style, new.voice, new.extended, new.lore,
     coalesce(new.status_before_archive, new.status) = 'in_progress')
  )
  execute function public.record_persona_version();

-- The current version of each persona holds what the persona holds now.
update public.persona_versions v
  set lore = p.lore
  from public.personas p
  where v.persona_id = p.id
    and v.version = (select max(w.version) from public.persona_versions w where w.persona_id = p.id);
