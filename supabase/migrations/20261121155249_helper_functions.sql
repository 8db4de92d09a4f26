-- Helpers the schema's check constraints and triggers use. Hand-written (drizzle-kit custom migration).

-- True when a text array holds no value twice (interests, personality traits).
create or replace function public.array_is_distinct(values_ text[])
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(cardinality(values_) = (select count(distinct v) from unnest(values_) as v), true)
$$;

-- Keeps updated_at honest on every update.
create or replace function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
