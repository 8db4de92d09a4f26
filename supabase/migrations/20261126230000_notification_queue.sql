-- Hand-written: what waits for a creator's notification digest (docs/product.md, Settings).
--
-- One row per event: a persona created, a backstory generated for a saved persona, or a
-- persona's reference images finished (ready or failed) while the creator was watching the page.
-- The server's digest sender (app/services/notifications.server.ts) sends each creator's rows in
-- one e-mail once the oldest is an interval old (an hour by default), then deletes them.
--
-- - Only the server writes and deletes, as the service role: a creator could otherwise queue
--   mail to any address (the row carries the address the digest goes to).
-- - A creator reads their own rows only (owner policy); anon has nothing.
-- - A row goes with its persona (a notice for a persona deleted meanwhile is never sent) and
--   with its account.
create table public.notification_queue (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  persona_id uuid not null references public.personas (id) on delete cascade,
  email text not null,
  kind text not null,
  detail text,
  created_at timestamp with time zone not null default now(),
  constraint notification_queue_kind_valid
    check (kind = any (array['persona_created', 'backstory_generated', 'images_ready', 'images_failed']::text[])),
  constraint notification_queue_email_length check (char_length(email) between 3 and 320),
  constraint notification_queue_detail_length check (char_length(detail) <= 500)
);

alter table public.notification_queue enable row level security;

create index notification_queue_user_id_created_at_idx on public.notification_queue using btree (user_id, created_at);
create index notification_queue_persona_id_idx on public.notification_queue using btree (persona_id);

create policy "notification_queue_select_own" on public.notification_queue as permissive for select to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.notification_queue from anon, authenticated;
grant select on table public.notification_queue to authenticated;
grant all on table public.notification_queue to service_role;
