-- Hand-written (drizzle-kit custom migration): the Free plan's persona limit (docs/product.md, Plans),
-- enforced where no race can slip past it. Every new persona locks its owner's profile
-- row, so simultaneous creations by one user queue up; a user whose subscription is not
-- 'active' may own at most 10 personas (drafts and archived included; deleting frees a
-- slot). personas_created counts every creation.
create or replace function public.enforce_persona_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  plan text;
  owned integer;
begin
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

create trigger personas_enforce_limit
  before insert on public.personas
  for each row execute function public.enforce_persona_limit();
