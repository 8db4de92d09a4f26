-- Hand-written (drizzle-kit custom migration): what drizzle-kit does not model.

-- Every new auth user gets a profile (fields from the sign-up metadata) and notification preferences.
create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, first_name, last_name, profile_image_url, auth_method)
  values (
    new.id,
    left(nullif(btrim(new.raw_user_meta_data ->> 'first_name'), ''), 60),
    left(nullif(btrim(new.raw_user_meta_data ->> 'last_name'), ''), 60),
    nullif(new.raw_user_meta_data ->> 'avatar_url', ''),
    coalesce(nullif(new.raw_app_meta_data ->> 'provider', ''), 'email')
  );
  insert into public.notification_preferences (user_id) values (new.id);
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();
create trigger personas_set_updated_at before update on public.personas
  for each row execute function public.set_updated_at();
create trigger notification_preferences_set_updated_at before update on public.notification_preferences
  for each row execute function public.set_updated_at();

-- Privileges. RLS decides which rows; grants decide which operations and columns.
-- anon gets nothing at all (Supabase grants it everything in public by default).
revoke all on table public.profiles, public.personas, public.chat_messages, public.notification_preferences
  from anon, authenticated;

-- A user reads their profile but changes only their own name and picture: plan, billing
-- ids and the creation counter are written by privileged code only.
grant select on table public.profiles to authenticated;
grant update (first_name, last_name, profile_image_url) on table public.profiles to authenticated;

grant select, insert, update, delete on table public.personas to authenticated;
grant select, insert, update, delete on table public.chat_messages to authenticated;
grant select, update (persona_creation, narrative_generation, image_generation, marketing_emails)
  on table public.notification_preferences to authenticated;

grant all on table public.profiles, public.personas, public.chat_messages, public.notification_preferences
  to service_role;

revoke execute on function public.handle_new_user() from public, anon, authenticated;
