-- Hand-written: a persona's name may be one character in the scripts that write a name in one
-- (Chinese, Japanese kana and kanji, Korean: 爱, 光, ひ); the two-character minimum stays for
-- other scripts (docs/product.md, Personas). The ranges are app/domain/persona.ts's
-- ONE_CHARACTER_NAME, as PostgreSQL's advanced regular expressions write them.
alter table public.personas drop constraint personas_name_length;
alter table public.personas add constraint personas_name_length check (
  (char_length(btrim(name)) >= 2
    or btrim(name) ~ '^[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]$')
  and char_length(name) <= 80
);
