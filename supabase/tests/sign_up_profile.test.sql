-- The profile a sign-up gets (handle_new_user) and its update path
-- (handle_user_identity_update), with auth.users written the way GoTrue writes it: the
-- INSERT, then the metadata rewrite, then the confirmation in a later UPDATE
-- (supabase/auth: signupNewUser, createAccountFromExternalIdentity, RemoveUnconfirmedIdentities,
-- Confirm). Metadata shapes are GoTrue's for an e-mail sign-up, Google and GitHub.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh, and on the Supabase-faithful database).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(18);

-- GoTrue's INSERT: the sign-up data as user_metadata, provider in app_metadata, unconfirmed.
create function pg_temp.gotrue_insert(uid uuid, address text, meta jsonb, provider text) returns void
language sql as $$
  insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', uid, 'authenticated', '', lower(address),
          jsonb_build_object('provider', provider, 'providers', jsonb_build_array(provider)), meta, now(), now());
  update auth.users set role = 'authenticated', updated_at = now() where id = uid;
$$;
-- GoTrue's Confirm: e-mail link followed, or the provider verified the address.
create function pg_temp.gotrue_confirm(uid uuid) returns void
language sql as $$
  update auth.users set confirmation_token = '', email_confirmed_at = now(), updated_at = now() where id = uid;
  update auth.users set raw_user_meta_data = raw_user_meta_data || '{"email_verified": true}', updated_at = now() where id = uid;
$$;
create function pg_temp.profile(uid uuid) returns text
language sql as $$
  select concat_ws(' | ', coalesce(first_name, '∅'), coalesce(last_name, '∅'), coalesce(profile_image_url, '∅'), auth_method)
  from public.profiles where id = uid;
$$;

-- ------------------------------------------------------------ e-mail sign-up
select pg_temp.gotrue_insert('a0000000-0000-4000-8000-000000000001', 'alice@example.test',
  '{"first_name":"  Alice ","last_name":"Archer"}', 'email');
update auth.users set raw_user_meta_data = raw_user_meta_data || jsonb_build_object('sub', id::text, 'email', email, 'email_verified', false, 'phone_verified', false)
 where id = 'a0000000-0000-4000-8000-000000000001';
select is(pg_temp.profile('a0000000-0000-4000-8000-000000000001'), 'Alice | Archer | ∅ | email',
  'an e-mail sign-up takes first_name and last_name from the sign-up data');
select pg_temp.gotrue_confirm('a0000000-0000-4000-8000-000000000001');
select is(pg_temp.profile('a0000000-0000-4000-8000-000000000001'), 'Alice | Archer | ∅ | email',
  'confirming the address keeps the same name');
select is((select count(*)::int from public.notification_preferences where user_id = 'a0000000-0000-4000-8000-000000000001'), 1,
  'the sign-up also gets notification preferences');

-- ------------------------------------------------------------ Google
select pg_temp.gotrue_insert('c0000000-0000-4000-8000-000000000003', 'carol@gmail.test',
  '{"iss":"https://accounts.google.com","sub":"109876543210987654321","name":"Carol Chen","email":"carol@gmail.test","picture":"https://lh3.googleusercontent.com/a/ACg8oc=s96-c","full_name":"Carol Chen","avatar_url":"https://lh3.googleusercontent.com/a/ACg8oc=s96-c","provider_id":"109876543210987654321","email_verified":true,"phone_verified":false}',
  'google');
select pg_temp.gotrue_confirm('c0000000-0000-4000-8000-000000000003');
select is(pg_temp.profile('c0000000-0000-4000-8000-000000000003'), 'Carol | Chen | https://lh3.googleusercontent.com/a/ACg8oc=s96-c | google',
  'Google: full_name split into first and last name, avatar_url as the picture');

select pg_temp.gotrue_insert('c0000000-0000-4000-8000-000000000004', 'cleo@gmail.test',
  '{"iss":"https://accounts.google.com","sub":"1099","name":"Cleo","email":"cleo@gmail.test","picture":"https://lh3.googleusercontent.com/a/cleo","email_verified":true}',
  'google');
select is(pg_temp.profile('c0000000-0000-4000-8000-000000000004'), 'Cleo | ∅ | https://lh3.googleusercontent.com/a/cleo | google',
  'Google with only name and picture: a one-word name is the first name, picture is the avatar');

-- ------------------------------------------------------------ GitHub
select pg_temp.gotrue_insert('d0000000-0000-4000-8000-000000000005', 'dan@github.test',
  '{"iss":"https://api.github.com","sub":"5551234","name":"Dan  de la Cruz","user_name":"dandlc","preferred_username":"dandlc","email":"dan@github.test","avatar_url":"https://avatars.githubusercontent.com/u/5551234?v=4","provider_id":"5551234","email_verified":true,"phone_verified":false}',
  'github');
select is(pg_temp.profile('d0000000-0000-4000-8000-000000000005'), 'Dan | de la Cruz | https://avatars.githubusercontent.com/u/5551234?v=4 | github',
  'GitHub: name split at the first space, the rest is the last name');

select pg_temp.gotrue_insert('d0000000-0000-4000-8000-000000000006', 'nameless@github.test',
  '{"iss":"https://api.github.com","sub":"5559999","user_name":"octo-cat","preferred_username":"octo-cat","email":"nameless@github.test","avatar_url":"https://avatars.githubusercontent.com/u/5559999?v=4","email_verified":true}',
  'github');
select is(pg_temp.profile('d0000000-0000-4000-8000-000000000006'), 'octo-cat | ∅ | https://avatars.githubusercontent.com/u/5559999?v=4 | github',
  'GitHub without a display name: the user name is the first name');

-- ------------------------------------------------------------ hostile values
select lives_ok($$ select pg_temp.gotrue_insert('e0000000-0000-4000-8000-000000000007', 'long@example.test',
  jsonb_build_object('name', repeat('x', 10000), 'avatar_url', 'javascript:alert(1)', 'picture', 'data:image/png;base64,AAAA'), 'google') $$,
  'a 10,000-character name and script or data avatars do not make the sign-up fail');
select is(pg_temp.profile('e0000000-0000-4000-8000-000000000007'), repeat('x', 60) || ' | ∅ | ∅ | google',
  'the name is cut to 60 characters; an avatar that is not http(s) is dropped');

select pg_temp.gotrue_insert('e0000000-0000-4000-8000-000000000008', 'mixed@example.test',
  jsonb_build_object('avatar_url', '/relative/path.png', 'picture', 'https://cdn.example.test/p.png', 'first_name', E'Eve\u0007', 'last_name', ''), 'email');
select is(pg_temp.profile('e0000000-0000-4000-8000-000000000008'), 'Eve | ∅ | https://cdn.example.test/p.png | email',
  'control characters are removed; a non-http(s) avatar_url falls back to an http(s) picture');

select lives_ok($$ select pg_temp.gotrue_insert('e0000000-0000-4000-8000-000000000009', 'odd@example.test', '"just a string"'::jsonb, 'email') $$,
  'metadata that is not an object does not make the sign-up fail');
select is(pg_temp.profile('e0000000-0000-4000-8000-000000000009'), '∅ | ∅ | ∅ | email', 'and gives an empty profile');

-- ------------------------------------------------------------ pre-registration of someone else's address
-- Mallory signs up victor@gmail.test with her chosen name and avatar and never confirms.
select pg_temp.gotrue_insert('f0000000-0000-4000-8000-00000000000a', 'victor@gmail.test',
  '{"first_name":"Mallory","last_name":"Owns-You","avatar_url":"https://evil.example.test/a.png"}', 'email');
select is(pg_temp.profile('f0000000-0000-4000-8000-00000000000a'), 'Mallory | Owns-You | https://evil.example.test/a.png | email',
  'the unconfirmed pre-registration has the attacker''s name for now');
-- Victor signs in with Google: GoTrue drops the unconfirmed password, replaces user_metadata
-- with Google's claims, links the identity and confirms the address.
update auth.users set encrypted_password = null, updated_at = now() where id = 'f0000000-0000-4000-8000-00000000000a';
update auth.users set raw_user_meta_data = '{"iss":"https://accounts.google.com","sub":"1088","name":"Victor Vega","full_name":"Victor Vega","email":"victor@gmail.test","avatar_url":"https://lh3.googleusercontent.com/a/victor","picture":"https://lh3.googleusercontent.com/a/victor","email_verified":true}',
  raw_app_meta_data = raw_app_meta_data || '{"providers":["email","google"]}', updated_at = now()
 where id = 'f0000000-0000-4000-8000-00000000000a';
select is(pg_temp.profile('f0000000-0000-4000-8000-00000000000a'), 'Mallory | Owns-You | https://evil.example.test/a.png | email',
  'a metadata change of an unconfirmed account changes nothing yet');
select pg_temp.gotrue_confirm('f0000000-0000-4000-8000-00000000000a');
select is(pg_temp.profile('f0000000-0000-4000-8000-00000000000a'), 'Victor | Vega | https://lh3.googleusercontent.com/a/victor | email',
  'on confirmation the attacker''s name and avatar are replaced by the owner''s provider data');

-- ------------------------------------------------------------ linking a provider later
-- Alice (confirmed, no picture) renames herself in Settings, then links GitHub: GoTrue merges its claims.
update public.profiles set first_name = 'Ally' where id = 'a0000000-0000-4000-8000-000000000001';
update auth.users set raw_user_meta_data = raw_user_meta_data
  || '{"iss":"https://api.github.com","name":"Alice Gh","user_name":"alicegh","avatar_url":"https://avatars.githubusercontent.com/u/77?v=4"}'
 where id = 'a0000000-0000-4000-8000-000000000001';
select is(pg_temp.profile('a0000000-0000-4000-8000-000000000001'), 'Ally | Archer | https://avatars.githubusercontent.com/u/77?v=4 | email',
  'linking a provider to a confirmed account fills only empty fields: the chosen name stays');

select is(
  (select count(*)::int from information_schema.role_routine_grants
    where routine_schema = 'public' and routine_name in ('handle_new_user', 'handle_user_identity_update', 'profile_fields_from_metadata')
      and grantee in ('anon', 'authenticated') and privilege_type = 'EXECUTE'),
  0, 'the API roles cannot call the sign-up functions');

select is(
  (select avatar from public.profile_fields_from_metadata('{"first_name":"Upper","avatar_url":"HTTPS://img.example.test/a.png"}')),
  null,
  'avatar: an upper-case scheme, which the profile constraint refuses, is dropped rather than failing the sign-up'
);

select * from finish();
rollback;
