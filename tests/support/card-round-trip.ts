// What a round trip changed: each field a card came in with, compared as a JSON value with the
// field the export wrote (docs/cards.md, Round trips). Our own extension
// (data.extensions.personaforge) is what the export adds and is left out; fields the card did
// not have may be added (a V2 card goes out as V3 with V3's fields).
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** A JSON value with object keys sorted at every level: two equal values give the same text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  return value;
}

const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

function cardData(card: unknown): Record<string, unknown> {
  if (!isObject(card)) return {};
  if (card.spec === "chara_card_v2" || card.spec === "chara_card_v3") return isObject(card.data) ? card.data : {};
  return card;
}

/** The fields that differ, as 'field: came in …, went out …'; [] when the round trip changed nothing. */
export function cardRoundTripDifferences(input: unknown, output: unknown): string[] {
  const before = cardData(input);
  const after = cardData(output);
  const differences: string[] = [];
  for (const [field, value] of Object.entries(before)) {
    if (field === "spec" || field === "spec_version") continue;
    let out = after[field];
    // Null is read as absent (the specs type no field as null; docs/cards.md, Round trips).
    if (value === null && out === undefined) continue;
    if (field === "extensions" && isObject(out)) {
      const { personaforge: _ours, ...rest } = out;
      out = rest;
    }
    if (JSON.stringify(canonical(value)) !== JSON.stringify(canonical(out))) {
      if (field === "character_book" && isObject(value) && isObject(out) && Array.isArray(value.entries) && Array.isArray(out.entries)) {
        const outEntries = out.entries as unknown[];
        (value.entries as unknown[]).forEach((entry, index) => {
          if (JSON.stringify(canonical(entry)) !== JSON.stringify(canonical(outEntries[index])))
            differences.push(`character_book.entries[${index}]: came in ${short(entry)}, went out ${short(outEntries[index])}`);
        });
        const { entries: _a, ...bookIn } = value;
        const { entries: _b, ...bookOut } = out;
        if (JSON.stringify(canonical(bookIn)) !== JSON.stringify(canonical(bookOut)))
          differences.push(`character_book: came in ${short(bookIn)}, went out ${short(bookOut)}`);
        if (outEntries.length !== value.entries.length)
          differences.push(`character_book.entries: came in ${value.entries.length}, went out ${outEntries.length}`);
        continue;
      }
      differences.push(`${field}: came in ${short(value)}, went out ${short(out)}`);
    }
  }
  return differences;
}
