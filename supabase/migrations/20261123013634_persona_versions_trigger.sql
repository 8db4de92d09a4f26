-- Hand-written (drizzle-kit custom migration): persona history (docs/decisions/006-persona-history-in-the-database.md). Every change to a
-- persona's fields becomes one immutable row of public.persona_versions, written by this
-- trigger and nothing else, so no code path can skip it. A status-only change (archive,
-- restore from the archive) is no version. The version number counts from 1 per persona;
-- the persona's row lock (taken by the INSERT or UPDATE that fires this) orders concurrent
-- writers, so two changes never get the same number.
--
-- Storage: the backstory and the narrative (up to 20,000 and 50,000 characters) are stored
-- only in the version that changed them; the others name that version in
-- backstory_version / narrative_version.
--
-- The kind of change is read from the change itself (created, draft_saved, draft_completed,
-- edited, image). What a row cannot tell (an import, a restore) the app says beforehand with
-- set_config('personaforge.version_kind', 'imported' | 'restored', true) and, for a restore,
-- 'personaforge.restored_from'; a hint that does not fit the change is ignored.
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
         old.backstory, old.narrative, coalesce(old.status_before_archive, old.status) = 'in_progress')
        is not distinct from
        (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
         new.backstory, new.narrative, coalesce(new.status_before_archive, new.status) = 'in_progress') then
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
    image_url, secondary_image_url, image_style, status, status_before_archive
  ) values (
    new.id, new.user_id, next_version, change_kind, from_version, auth.uid(),
    new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
    case when store_backstory then new.backstory end,
    case when store_backstory then next_version else prev_backstory end,
    case when store_narrative then new.narrative end,
    case when store_narrative then next_version else prev_narrative end,
    new.image_url, new.secondary_image_url, new.image_style, new.status, new.status_before_archive
  );
  return null;
end;
$$;

revoke execute on function public.record_persona_version() from public, anon, authenticated;

create trigger personas_record_version_insert
  after insert on public.personas
  for each row execute function public.record_persona_version();

-- Only a change of what a version holds; archive and restore (status and
-- status_before_archive alone, the draft stage unchanged) make none.
create trigger personas_record_version_update
  after update on public.personas
  for each row
  when (
    (old.name, old.type, old.gender, old.age_range, old.interests, old.description, old.personality,
     old.backstory, old.narrative, old.image_url, old.secondary_image_url, old.image_style,
     coalesce(old.status_before_archive, old.status) = 'in_progress')
    is distinct from
    (new.name, new.type, new.gender, new.age_range, new.interests, new.description, new.personality,
     new.backstory, new.narrative, new.image_url, new.secondary_image_url, new.image_style,
     coalesce(new.status_before_archive, new.status) = 'in_progress')
  )
  execute function public.record_persona_version();

-- Personas that existed before history: their current fields are version 1.
insert into public.persona_versions (
  persona_id, user_id, version, kind, changed_by, created_at,
  name, type, gender, age_range, interests, description, personality,
  backstory, backstory_version, narrative, narrative_version,
  image_url, secondary_image_url, image_style, status, status_before_archive
)
select
  p.id, p.user_id, 1, case when coalesce(p.status_before_archive, p.status) = 'in_progress' then 'draft_saved' else 'created' end,
  p.user_id, p.updated_at,
  p.name, p.type, p.gender, p.age_range, p.interests, p.description, p.personality,
  p.backstory, 1, p.narrative, 1,
  p.image_url, p.secondary_image_url, p.image_style, p.status, p.status_before_archive
from public.personas p
where not exists (select 1 from public.persona_versions v where v.persona_id = p.id);

-- Privileges. Owners read their personas' versions (RLS: persona_versions_select_own); nobody
-- writes one but the trigger above (it runs as the table's owner). anon gets nothing.
revoke all on table public.persona_versions from public, anon, authenticated, service_role;
grant select on table public.persona_versions to authenticated, service_role;
