-- Hand-written (drizzle-kit custom migration): privileges for billing (docs/decisions/005-plans-follow-stripe.md).
-- The processed Stripe webhook events are the webhook's own bookkeeping: RLS is on with no
-- policy, and anon/authenticated get no privilege at all, so only the service role (the
-- webhook's door, which bypasses RLS) reads or writes them. Supabase grants every role
-- everything in public by default, hence the explicit revoke.
revoke all on table public.stripe_events from public, anon, authenticated;
grant select, insert, delete on table public.stripe_events to service_role;

-- The plan, the Stripe ids, the period end and the trial end are written by the webhook and
-- the operator's `npm run plan` only: the user's column grants on profiles (first_name,
-- last_name, profile_image_url) do not include the new trial_ends_at column.
