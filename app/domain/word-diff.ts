// Word-level differences between two texts (docs/product.md, History): what was kept, added
// and removed, word by word, for the backstory and description on the compare page and in the
// API. Words are Unicode-aware (see TOKEN). The difference is
// Myers' O(ND) algorithm over the words left once the common start and end are set aside;
// past MAX_EDITS (two unrelated 20,000-character texts) the middle is shown as removed, then
// added, which is what such a change is anyway.

export type DiffOp = "same" | "added" | "removed";
export interface DiffPart {
  op: DiffOp;
  text: string;
}

/** How many word edits are searched for before the middle is reported as replaced wholesale. */
export const MAX_EDITS = 1_000;

// A word: letters, digits and combining marks, with inner apostrophes (O'Brien, don't). A run of
// spaces is one token. Scripts written without spaces (Han, kana, Thai…) go character by
// character, as does any other symbol (punctuation, emoji). A regular expression, not
// Intl.Segmenter: on a 20,000-character backstory it is ~50 times faster.
const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]|[\p{L}\p{N}\p{M}_]+(?:['’][\p{L}\p{N}\p{M}_]+)*|\s+|[^]/gu;

/** Words, runs of spaces and single other characters, in order; joined they give back the text. */
export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** The shortest edit script between a and b (Myers), as ops over tokens; null when longer than maxEdits. */
function myers(a: string[], b: string[], maxEdits: number): DiffOp[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const next = v;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && next[offset + k - 1]! < next[offset + k + 1]!) ? next[offset + k + 1]! : next[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    v = next;
  }
  return null;
}

function backtrack(trace: Int32Array[], lastD: number, n: number, m: number): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  // trace[d] holds V before step d, for k in [-d-1, d+1] (index k + d + 1).
  for (let d = lastD; d > 0; d--) {
    const prev = trace[d]!;
    const at = (k: number) => prev[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("same");
      x--;
      y--;
    }
    ops.push(down ? "added" : "removed");
    if (down) y--;
    else x--;
  }
  while (x > 0 && y > 0) {
    ops.push("same");
    x--;
    y--;
  }
  return ops.reverse();
}

function push(parts: DiffPart[], op: DiffOp, text: string) {
  if (text === "") return;
  const last = parts[parts.length - 1];
  if (last && last.op === op) last.text += text;
  else parts.push({ op, text });
}

/**
 * The word-level difference from `before` to `after`: parts in reading order, neighbours of one
 * kind merged. Joining the same and removed parts gives `before`; same and added give `after`.
 */
export function wordDiff(before: string, after: string, maxEdits = MAX_EDITS): DiffPart[] {
  // Two versions often share their backstory: nothing to split.
  if (before === after) return before === "" ? [] : [{ op: "same", text: before }];
  const a = tokenize(before);
  const b = tokenize(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  push(parts, "same", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops = myers(midA, midB, maxEdits);
  if (ops) {
    let i = 0;
    let j = 0;
    // Within one change, removals are listed before additions ("old new", as read aloud).
    let removed = "";
    let added = "";
    const flush = () => {
      push(parts, "removed", removed);
      push(parts, "added", added);
      removed = "";
      added = "";
    };
    for (const op of ops) {
      if (op === "same") {
        flush();
        push(parts, "same", midA[i]!);
        i++;
        j++;
      } else if (op === "removed") removed += midA[i++]!;
      else added += midB[j++]!;
    }
    flush();
  } else {
    push(parts, "removed", midA.join(""));
    push(parts, "added", midB.join(""));
  }
  push(parts, "same", a.slice(endA).join(""));
  return absorbLoneSpaces(parts);
}

type Group = { same: string } | { removed: string; added: string };

/**
 * A space kept between two changes reads as noise ("~~old~~ ++new++ ~~word~~ ++other++"): it
 * joins the changes on both sides, so one rewritten phrase is one removal and one addition.
 * Only when the joined change both removes and adds, so both texts still read back whole.
 */
function absorbLoneSpaces(parts: DiffPart[]): DiffPart[] {
  const groups: Group[] = [];
  for (const part of parts) {
    const last = groups[groups.length - 1];
    if (part.op === "same") groups.push({ same: part.text });
    else if (last && !("same" in last)) last[part.op] += part.text;
    else groups.push(part.op === "removed" ? { removed: part.text, added: "" } : { removed: "", added: part.text });
  }
  const out: Group[] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    const prev = out[out.length - 1];
    const next = groups[i + 1];
    if (
      "same" in group &&
      /^\s+$/u.test(group.same) &&
      prev &&
      !("same" in prev) &&
      next &&
      !("same" in next) &&
      (prev.removed || next.removed) &&
      (prev.added || next.added)
    ) {
      prev.removed += group.same + next.removed;
      prev.added += group.same + next.added;
      i++;
      continue;
    }
    out.push("same" in group ? { ...group } : { ...group });
  }
  const result: DiffPart[] = [];
  for (const group of out) {
    if ("same" in group) push(result, "same", group.same);
    else {
      push(result, "removed", group.removed);
      push(result, "added", group.added);
    }
  }
  return result;
}

/** Whether a diff has any change at all. */
export function hasChanges(parts: DiffPart[]): boolean {
  return parts.some((part) => part.op !== "same");
}

/** Items added to and removed from a list (order ignored), and those kept, in the lists' own orders. */
export function listDiff(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[]; kept: string[] } {
  const was = new Set(before);
  const now = new Set(after);
  return {
    added: after.filter((item) => !was.has(item)),
    removed: before.filter((item) => !now.has(item)),
    kept: after.filter((item) => was.has(item)),
  };
}

/** A diff as a page shows it: long unchanged stretches between changes folded to a marker. */
export type DisplayPart = DiffPart | { op: "skip"; words: number };

const countWords = (text: string) => text.match(/\S+/g)?.length ?? 0;

/**
 * Folds the middle of every unchanged stretch longer than about two contexts, keeping
 * `context` characters (cut at a space) next to each change: a one-word edit in a
 * 20,000-character backstory reads as that sentence, not the whole text.
 */
export function condense(parts: DiffPart[], context = 200): DisplayPart[] {
  const out: DisplayPart[] = [];
  parts.forEach((part, i) => {
    const keepHead = i > 0; // something changed before: keep the start
    const keepTail = i < parts.length - 1; // something changes after: keep the end
    if (part.op !== "same" || part.text.length <= (Number(keepHead) + Number(keepTail)) * context + 80) {
      out.push(part);
      return;
    }
    const text = part.text;
    let headEnd = 0;
    if (keepHead) {
      const space = text.lastIndexOf(" ", context);
      headEnd = space > context / 2 ? space + 1 : context;
    }
    let tailStart = text.length;
    if (keepTail) {
      const space = text.indexOf(" ", text.length - context);
      tailStart = space >= 0 && space < text.length - context / 2 ? space + 1 : text.length - context;
    }
    if (headEnd > 0) out.push({ op: "same", text: text.slice(0, headEnd) });
    out.push({ op: "skip", words: countWords(text.slice(headEnd, tailStart)) });
    if (tailStart < text.length) out.push({ op: "same", text: text.slice(tailStart) });
  });
  return out;
}
