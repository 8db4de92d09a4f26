-- Hand-written: the sign-up avatar check matched the scheme case-insensitively ('HTTPS://…'
-- passed) while the profiles_profile_image_url_safe constraint accepts only lower-case
-- 'http://' and 'https://', so such a provider value made the sign-up (or the confirmation)
-- fail. The function now drops it, as it drops any other unusable avatar.
create or replace function public.profile_fields_from_metadata(meta jsonb)
returns table (first_name text, last_name text, avatar text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  clean_first text;
  clean_last text;
  full_name text;
  picture text;
begin
  meta := coalesce(meta, '{}'::jsonb);
  if jsonb_typeof(meta) <> 'object' then
    meta := '{}'::jsonb;
  end if;
  clean_first := nullif(btrim(regexp_replace(coalesce(meta ->> 'first_name', ''), '[[:cntrl:]]', '', 'g')), '');
  clean_last := nullif(btrim(regexp_replace(coalesce(meta ->> 'last_name', ''), '[[:cntrl:]]', '', 'g')), '');
  if clean_first is null and clean_last is null then
    full_name := nullif(btrim(regexp_replace(
      coalesce(nullif(btrim(meta ->> 'full_name'), ''), nullif(btrim(meta ->> 'name'), ''), ''),
      '[[:cntrl:][:space:]]+', ' ', 'g')), '');
    if full_name is not null then
      clean_first := split_part(full_name, ' ', 1);
      clean_last := nullif(btrim(substr(full_name, char_length(clean_first) + 1)), '');
    else
      clean_first := nullif(btrim(regexp_replace(
        coalesce(nullif(btrim(meta ->> 'user_name'), ''), nullif(btrim(meta ->> 'preferred_username'), ''), ''),
        '[[:cntrl:]]', '', 'g')), '');
    end if;
  end if;
  first_name := nullif(btrim(left(clean_first, 60)), '');
  last_name := nullif(btrim(left(clean_last, 60)), '');

  avatar := nullif(btrim(meta ->> 'avatar_url'), '');
  picture := nullif(btrim(meta ->> 'picture'), '');
  if avatar is null or avatar !~ '^https?://[^[:space:]]+$' or char_length(avatar) > 2048 then
    avatar := picture;
  end if;
  if avatar is not null and (avatar !~ '^https?://[^[:space:]]+$' or char_length(avatar) > 2048) then
    avatar := null;
  end if;
  return next;
end;
$$;

revoke execute on function public.profile_fields_from_metadata(jsonb) from public, anon, authenticated;
