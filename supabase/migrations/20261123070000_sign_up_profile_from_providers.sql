-- Hand-written (drizzle-kit custom migration): the profile a sign-up gets, from whatever
-- the identity provider put in raw_user_meta_data, and kept honest when the account's
-- owner proves the address.
--
-- What GoTrue stores there:
--   e-mail sign-up  the app's options.data: first_name, last_name (+ sub, email, email_verified)
--   Google          iss, sub, name, full_name, email, picture, avatar_url, provider_id, email_verified
--   GitHub          iss, sub, name (may be absent), user_name, preferred_username, email,
--                   avatar_url, provider_id, email_verified
-- Names: first_name/last_name when given, else full_name/name split at the first space,
-- else (GitHub without a display name) the user name as first name. Every value is trimmed,
-- control characters removed and cut to the profile's 60 characters, so no provider value
-- can make a sign-up fail. The avatar: avatar_url, else picture, http(s) only, ≤ 2048.

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
  if avatar is null or avatar !~* '^https?://[^[:space:]]+$' or char_length(avatar) > 2048 then
    avatar := picture;
  end if;
  if avatar is not null and (avatar !~* '^https?://[^[:space:]]+$' or char_length(avatar) > 2048) then
    avatar := null;
  end if;
  return next;
end;
$$;

revoke execute on function public.profile_fields_from_metadata(jsonb) from public, anon, authenticated;

create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  fields record;
begin
  select * into fields from public.profile_fields_from_metadata(new.raw_user_meta_data);
  insert into public.profiles (id, first_name, last_name, profile_image_url, auth_method)
  values (
    new.id,
    fields.first_name,
    fields.last_name,
    fields.avatar,
    coalesce(nullif(new.raw_app_meta_data ->> 'provider', ''), 'email')
  );
  insert into public.notification_preferences (user_id) values (new.id);
  return new;
end;
$$;

revoke execute on function public.handle_new_user() from public, anon, authenticated;

-- The update path. Anyone can sign up someone else's address and leave it unconfirmed with
-- a name and avatar of their choosing. GoTrue lets the address's owner in later (signing in
-- with Google or GitHub links the identity, drops the unconfirmed password and replaces
-- user_metadata with the provider's claims, then confirms), so:
-- - when the address is confirmed, the profile's name, avatar and sign-in method are
--   rewritten from the metadata as it is at that moment (for an ordinary e-mail
--   confirmation that is what the sign-up wrote: nothing changes);
-- - when an already confirmed account's metadata changes (GoTrue merges a newly linked
--   provider's claims), only the profile fields that are still empty are filled: what the
--   user chose in Settings stays.
create or replace function public.handle_user_identity_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  fields record;
begin
  select * into fields from public.profile_fields_from_metadata(new.raw_user_meta_data);
  if old.email_confirmed_at is null and new.email_confirmed_at is not null then
    update public.profiles p
       set first_name = fields.first_name,
           last_name = fields.last_name,
           profile_image_url = fields.avatar,
           auth_method = coalesce(nullif(new.raw_app_meta_data ->> 'provider', ''), p.auth_method)
     where p.id = new.id;
  elsif new.email_confirmed_at is not null then
    update public.profiles p
       set first_name = coalesce(p.first_name, fields.first_name),
           last_name = coalesce(p.last_name, fields.last_name),
           profile_image_url = coalesce(p.profile_image_url, fields.avatar)
     where p.id = new.id
       and ((p.first_name is null and fields.first_name is not null)
         or (p.last_name is null and fields.last_name is not null)
         or (p.profile_image_url is null and fields.avatar is not null));
  end if;
  return new;
end;
$$;

revoke execute on function public.handle_user_identity_update() from public, anon, authenticated;

create trigger on_auth_user_identity_updated
  after update of email_confirmed_at, raw_user_meta_data on auth.users
  for each row
  when (old.email_confirmed_at is distinct from new.email_confirmed_at
        or old.raw_user_meta_data is distinct from new.raw_user_meta_data)
  execute function public.handle_user_identity_update();
