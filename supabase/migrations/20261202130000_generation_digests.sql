-- Hand-written: what a generation wrote, as a digest, so an export can say a backstory was
-- generated (docs/product.md, AI disclosure).
--
-- - generations.output_digest: the md5 of the text a backstory generation answered (line breaks
--   as \n, trimmed), never the text itself; null for other kinds and for generations before this.
-- - generations.model: the model that wrote it; null for the built-in generator.
-- An export names the backstory as generated when the persona's backstory has the digest of one
-- its creator's generations wrote. The generations policies (the owner reads and adds their own)
-- cover the columns; a creator could at most label their own text as generated.
alter table public.generations add column output_digest bytea;
alter table public.generations add column model text;
alter table public.generations add constraint generations_output_digest_valid
  check (output_digest is null or octet_length(output_digest) = 16);
alter table public.generations add constraint generations_model_valid
  check (model is null or char_length(model) between 1 and 100);
create index generations_user_id_output_digest_idx on public.generations (user_id, output_digest)
  where output_digest is not null;
