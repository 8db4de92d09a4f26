-- Hand-written: the library's search is planned with the caller's id and the pattern (docs/decisions/016-answers-read-from-bytes-and-a-search-planned-with-values.md).
--
-- Migration 20261123110000 made search.persona_ids_matching a SQL function so that the
-- pattern could use the trigram indexes. A SQL function's query is planned without the values
-- it will run with: `user_id = (select auth.uid())` and `name ilike pattern` are both unknowns
-- to the planner. It then guessed a creator's share of the table as 1 ÷ (number of creators in
-- the statistics' sample), and chose between the trigram indexes and a scan of the creator's
-- personas on that guess. The guess moved with each ANALYZE's sample: a creator with 2,000
-- personas was sometimes planned as a few hundred, and each search then tested the pattern on
-- all 2,000 rows (12 ms of CPU a request in the bench, against 2–4 ms through the indexes).
--
-- The query is now run by EXECUTE … USING, so each call is planned with the actual values: the
-- caller's number of personas comes from the statistics' most common values, the pattern's
-- selectivity from its trigrams and the histogram. A rare word goes through the indexes; a
-- pattern that matches most of a creator's personas ('%a%', which has no trigram to look up)
-- reads that creator's rows. Everything else is unchanged: SECURITY DEFINER, no search path,
-- the caller's own personas only (auth.uid(), never a parameter), the same grants.
create or replace function search.persona_ids_matching(pattern text)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
rows 20
as $$
begin
  return query execute
    'select p.id from public.personas p where p.user_id = $1 and (p.name ilike $2 or p.description ilike $2)'
    using auth.uid(), pattern;
end
$$;

revoke all on function search.persona_ids_matching(text) from public, anon;
grant execute on function search.persona_ids_matching(text) to authenticated, service_role;
