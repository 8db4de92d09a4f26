-- public.chat_messages: reachable only through a persona the user owns. Nobody reads,
-- edits or deletes another user's messages, writes into another user's persona, or moves
-- a message there; anon sees nothing.
-- Runs with `supabase test db` and with pg_prove (.ci/pgtap.sh).
begin;
create schema if not exists extensions;
create extension if not exists pgtap with schema extensions;
grant usage on schema extensions to anon, authenticated;
set local search_path = public, extensions;

select plan(29);

-- Rows touched (or returned) by a statement run as the current role; a privilege
-- error (42501) counts as zero: "denied or empty".
create function pg_temp.row_count(statement text) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  execute statement;
  get diagnostics n = row_count;
  return n;
exception when insufficient_privilege then
  return 0;
end;
$$;

insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
values
  ('11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated', 'alice@example.test',
   '{"first_name":"Alice","last_name":"Archer"}', '{"provider":"email"}', now()),
  ('22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated', 'bob@example.test',
   '{"first_name":"Bob","last_name":"Baker"}', '{"provider":"email"}', now());

insert into public.personas (id, user_id, name) values
  ('a0000000-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111', 'Aria'),
  ('b0000000-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222', 'Bram');

insert into public.chat_messages (id, persona_id, role, content) values
  ('a1000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'user', 'Hello Aria'),
  ('a1000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'assistant', 'Hi Alice'),
  ('b1000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001', 'user', 'Hello Bram'),
  ('b1000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001', 'user', 'Bye Bram');

-- ---------------------------------------------------------------- as Bob
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';

select set_eq(
  $$ select id from public.chat_messages $$,
  $$ values ('b1000000-0000-4000-8000-000000000001'::uuid), ('b1000000-0000-4000-8000-000000000002'::uuid) $$,
  'select: Bob sees exactly the messages of his own persona'
);
select is_empty(
  $$ select id from public.chat_messages where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read Alice''s conversation by persona_id'
);
select is_empty(
  $$ select id from public.chat_messages where id = 'a1000000-0000-4000-8000-000000000001' $$,
  'select: Bob cannot read Alice''s message by id'
);

select lives_ok(
  $$ insert into public.chat_messages (id, persona_id, role, content)
     values ('b1000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000001', 'user', 'Still there?') $$,
  'insert: Bob may write into his own persona''s conversation'
);
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content)
     values ('a0000000-0000-4000-8000-000000000001', 'assistant', 'Injected') $$,
  '42501', 'new row violates row-level security policy for table "chat_messages"',
  'insert: Bob cannot write into Alice''s conversation'
);

select is(
  pg_temp.row_count($$ update public.chat_messages set content = 'Edited'
                       where id = 'a1000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob changes no message of Alice''s'
);
select is(
  pg_temp.row_count($$ update public.chat_messages set is_deleted = true
                       where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'update: Bob cannot soft-delete Alice''s conversation'
);
select is(
  pg_temp.row_count($$ update public.chat_messages set content = content || '!' $$),
  3::bigint,
  'update: an unfiltered update reaches only Bob''s three messages'
);
select throws_ok(
  $$ update public.chat_messages set persona_id = 'a0000000-0000-4000-8000-000000000001'
     where id = 'b1000000-0000-4000-8000-000000000001' $$,
  '42501', 'new row violates row-level security policy for table "chat_messages"',
  'update: Bob cannot move his message into Alice''s persona'
);
select throws_ok(
  $$ update public.chat_messages set persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  '42501', 'new row violates row-level security policy for table "chat_messages"',
  'update: Bob cannot move all his messages into Alice''s persona with an unfiltered update'
);
select is(
  pg_temp.row_count($$ update public.chat_messages set persona_id = 'b0000000-0000-4000-8000-000000000001'
                       where id = 'a1000000-0000-4000-8000-000000000002' $$),
  0::bigint,
  'update: Bob cannot pull Alice''s message into his own persona'
);

select is(
  pg_temp.row_count($$ delete from public.chat_messages where id = 'a1000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'delete: Bob deletes no message of Alice''s'
);
select is(
  pg_temp.row_count($$ delete from public.chat_messages where persona_id = 'a0000000-0000-4000-8000-000000000001' $$),
  0::bigint,
  'delete: Bob cannot clear Alice''s conversation'
);
select is(
  pg_temp.row_count($$ delete from public.chat_messages where id = 'b1000000-0000-4000-8000-000000000002' $$),
  1::bigint,
  'delete: Bob may delete his own message'
);

-- ---------------------------------------------------------------- as Alice
reset role;
set local role authenticated;
set local request.jwt.claims = '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}';

select results_eq(
  $$ select id, content, is_deleted from public.chat_messages order by id $$,
  $$ values ('a1000000-0000-4000-8000-000000000001'::uuid, 'Hello Aria'::text, false),
            ('a1000000-0000-4000-8000-000000000002'::uuid, 'Hi Alice'::text, false) $$,
  'select: Alice sees exactly her own conversation, unchanged'
);
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content)
     values ('b0000000-0000-4000-8000-000000000001', 'user', 'Injected') $$,
  '42501', 'new row violates row-level security policy for table "chat_messages"',
  'insert: Alice cannot write into Bob''s conversation either'
);
select is(
  pg_temp.row_count($$ delete from public.chat_messages $$),
  2::bigint,
  'delete: an unfiltered delete by Alice reaches only her own two messages'
);

-- ---------------------------------------------------------------- as anon
reset role;
set local role anon;
set local request.jwt.claims = '{"role":"anon"}';

select is(
  pg_temp.row_count($$ select * from public.chat_messages $$),
  0::bigint,
  'anon: select sees no message'
);
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content)
     values ('b0000000-0000-4000-8000-000000000001', 'user', 'Anon') $$,
  '42501', null,
  'anon: insert is rejected'
);
select is(
  pg_temp.row_count($$ update public.chat_messages set content = 'Anon' $$),
  0::bigint,
  'anon: update changes nothing'
);
select is(
  pg_temp.row_count($$ delete from public.chat_messages $$),
  0::bigint,
  'anon: delete removes nothing'
);

-- ---------------------------------------------------------------- as postgres: what really happened
reset role;
reset request.jwt.claims;

select set_eq(
  $$ select id, persona_id, content from public.chat_messages $$,
  $$ values ('b1000000-0000-4000-8000-000000000001'::uuid, 'b0000000-0000-4000-8000-000000000001'::uuid, 'Hello Bram!'::text),
            ('b1000000-0000-4000-8000-000000000003'::uuid, 'b0000000-0000-4000-8000-000000000001'::uuid, 'Still there?!'::text) $$,
  'exactly Bob''s remaining messages exist, in his persona, with his edits'
);
select is_empty(
  $$ select id from public.chat_messages where content in ('Injected', 'Edited', 'Anon') $$,
  'no injected, edited or anonymous message exists'
);

-- Restore Alice's conversation and check that Bob's unfiltered delete spares it.
insert into public.chat_messages (id, persona_id, role, content) values
  ('a1000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'user', 'Hello Aria');
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';
select is(
  pg_temp.row_count($$ delete from public.chat_messages $$),
  2::bigint,
  'delete: an unfiltered delete by Bob reaches only his own two messages'
);
reset role;
reset request.jwt.claims;
select results_eq(
  $$ select id from public.chat_messages $$,
  $$ values ('a1000000-0000-4000-8000-000000000001'::uuid) $$,
  'only Alice''s message survives Bob''s unfiltered delete'
);

-- Deleting a persona takes its conversation with it.
delete from public.personas where id = 'a0000000-0000-4000-8000-000000000001';
select is_empty(
  $$ select id from public.chat_messages where persona_id = 'a0000000-0000-4000-8000-000000000001' $$,
  'deleting a persona cascades to its messages'
);

-- The no-JavaScript send form's idempotency key: one message per key and persona; seq keeps
-- the order messages were written in.
set local role authenticated;
set local request.jwt.claims = '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}';
insert into public.chat_messages (persona_id, role, content, client_key) values
  ('b0000000-0000-4000-8000-000000000001', 'user', 'Keyed once', 'c0000000-0000-4000-8000-000000000001');
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content, client_key)
     values ('b0000000-0000-4000-8000-000000000001', 'user', 'Keyed twice', 'c0000000-0000-4000-8000-000000000001') $$,
  '23505', null,
  'client_key: a second message with the same key in the same persona is refused'
);
insert into public.chat_messages (persona_id, role, content) values
  ('b0000000-0000-4000-8000-000000000001', 'assistant', 'Reply to keyed');
select ok(
  (select max(seq) filter (where content = 'Reply to keyed') > max(seq) filter (where content = 'Keyed once')
   from public.chat_messages),
  'seq: a later message has a higher seq'
);
select throws_ok(
  $$ insert into public.chat_messages (persona_id, role, content, seq)
     values ('b0000000-0000-4000-8000-000000000001', 'user', 'Forged order', 1) $$,
  '428C9', null,
  'seq: nobody writes the order by hand'
);
reset role;
reset request.jwt.claims;

select * from finish();
rollback;
