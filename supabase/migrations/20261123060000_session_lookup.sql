-- Hand-written: the embedded auth's session check in one statement (docs/decisions/008-one-statement-sessions-and-a-database-thread.md). A request
-- carrying a verified JWT (signature, issuer, audience and expiry checked in the app) asks
-- whether its session is still open and, in the same statement, reads what every signed-in
-- page shows of its user: the account (auth.users) and the profile. Before this it took two
-- transactions (the session as service_role, the profile through the RLS door): about eight
-- round trips to the database per request.
--
-- Nothing is cached, so revocation stays exact across any number of app processes: signing
-- out, changing or resetting the password and deleting the account delete the session rows
-- (or the user), and the very next statement sees that.
--
-- SECURITY DEFINER with an empty search_path, owned by the migration's role; only the
-- service role may execute it (anon and authenticated get nothing). It answers for the one
-- (session, user) pair the verified token names and nothing else. In Supabase mode GoTrue
-- checks sessions and this function is unused.
create or replace function private.session_user_profile(p_session_id uuid, p_user_id uuid)
returns table (
  id uuid,
  email text,
  email_confirmed_at timestamptz,
  created_at timestamptz,
  first_name text,
  last_name text,
  profile_image_url text,
  subscription_status text,
  profile_created_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, u.email::text, u.email_confirmed_at, u.created_at,
         p.first_name, p.last_name, p.profile_image_url, p.subscription_status, p.created_at
    from auth.sessions s
    join auth.users u on u.id = s.user_id
    left join public.profiles p on p.id = u.id
   where s.id = p_session_id
     and s.user_id = p_user_id
     and (s.not_after is null or s.not_after > now())
     and u.deleted_at is null
$$;

revoke all on function private.session_user_profile(uuid, uuid) from public, anon, authenticated;
grant execute on function private.session_user_profile(uuid, uuid) to service_role;
