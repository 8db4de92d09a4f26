-- Hand-written: the persona-limit trigger runs before row-level security's WITH CHECK, so it
-- used to lock and count the rows of whatever user_id a caller named, and its error told a
-- stranger whether that user was on the Free plan with 10 personas. A signed-in caller
-- (auth.uid() set) naming someone else now gets the very error RLS gives, before anything is
-- locked or counted. Privileged callers (service role, migrations) have no auth.uid() and
-- are unaffected.
create or replace function public.enforce_persona_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  plan text;
  owned integer;
  caller uuid := auth.uid();
begin
  if caller is not null and new.user_id is distinct from caller then
    raise exception 'new row violates row-level security policy for table "personas"' using errcode = '42501';
  end if;
  select subscription_status into plan from public.profiles where id = new.user_id for update;
  if coalesce(plan, 'free') <> 'active' then
    select count(*) into owned from public.personas where user_id = new.user_id;
    if owned >= 10 then
      raise exception 'Free Plan Limit Reached' using errcode = 'P0001', hint = 'persona_limit_reached';
    end if;
  end if;
  update public.profiles set personas_created = personas_created + 1 where id = new.user_id;
  return new;
end;
$$;

revoke execute on function public.enforce_persona_limit() from public, anon, authenticated;
