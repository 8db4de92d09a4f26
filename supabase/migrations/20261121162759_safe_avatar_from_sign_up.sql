-- Hand-written (drizzle-kit custom migration): the sign-up trigger keeps an identity
-- provider's avatar only when it passes profiles_profile_image_url_safe, so an odd
-- avatar value can never make a sign-up fail.
create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  avatar text := nullif(new.raw_user_meta_data ->> 'avatar_url', '');
begin
  if avatar is not null and (avatar !~ '^(https?://|/[^/])' or char_length(avatar) > 2048) then
    avatar := null;
  end if;
  insert into public.profiles (id, first_name, last_name, profile_image_url, auth_method)
  values (
    new.id,
    left(nullif(btrim(new.raw_user_meta_data ->> 'first_name'), ''), 60),
    left(nullif(btrim(new.raw_user_meta_data ->> 'last_name'), ''), 60),
    avatar,
    coalesce(nullif(new.raw_app_meta_data ->> 'provider', ''), 'email')
  );
  insert into public.notification_preferences (user_id) values (new.id);
  return new;
end;
$$;

revoke execute on function public.handle_new_user() from public, anon, authenticated;
