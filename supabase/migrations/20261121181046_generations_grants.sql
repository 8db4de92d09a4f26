-- Hand-written (drizzle-kit custom migration): privileges on the generations log. A user
-- reads and adds their own rows (RLS decides which); nobody rewrites or removes history,
-- except the account's deletion (cascade). anon gets nothing.
revoke all on table public.generations from anon, authenticated;
grant select, insert on table public.generations to authenticated;
grant all on table public.generations to service_role;
