// 'Build lorebook from backstory' (docs/product.md, Lore): proposals for a persona's lorebook from
// its backstory and facts. The embedded compile (app/domain/lore-compile.ts) always runs: it is
// deterministic and offline, and it gives the coverage report and the stale entries. With a
// model configured (a TextGenerator with compileLore), the model's proposals come first and the
// embedded ones fill in the subjects the model left out; when the model fails, the embedded
// proposals stand alone, so the creator always gets an answer.
import { compileLore, type LoreCompilation, type LoreCompileInput, type LoreProposal } from "~/domain/lore-compile";

import { textGenerator } from "./ai.server";
import type { GenerateOptions, TextGenerator } from "./types";

export type { LoreCompilation, LoreCompileInput, LoreCoverage, LoreProposal, LoreStale } from "~/domain/lore-compile";

export interface ProposedLore extends LoreCompilation {
  /** Where the proposals came from: the embedded compile, the model, or the model with embedded ones added. */
  source: "embedded" | "model" | "both";
  /** Why the model's proposals are missing when one is configured (its AiError's message). */
  modelError?: string;
}

// Keys many subjects share: two proposals sharing only one of these are not the same subject.
const SHARED_KEYS = new Set(["secret", "secrets", "born", "job", "occupation", "school", "studies", "family", "hometown"]);
const keySet = (keys: readonly string[]) => new Set(keys.map((key) => key.trim().toLowerCase()).filter((key) => !SHARED_KEYS.has(key)));

/**
 * Proposals for the lorebook (docs/product.md, Lore), through the configured model when it can
 * propose entries, merged with the embedded compile; the coverage of what the backstory names
 * and the existing entries it no longer supports. Nothing is stored.
 */
export async function proposeLore(
  input: LoreCompileInput,
  options: GenerateOptions & { generator?: TextGenerator } = {},
): Promise<ProposedLore> {
  const embedded = compileLore(input);
  const generator = options.generator ?? textGenerator();
  if (!generator.compileLore) return { ...embedded, source: "embedded" };

  let fromModel: LoreProposal[];
  try {
    fromModel = await generator.compileLore(input, { signal: options.signal });
  } catch (error) {
    return { ...embedded, source: "embedded", modelError: error instanceof Error ? error.message : String(error) };
  }
  // Nothing already in the lorebook is proposed again.
  const existingKeys = keySet(input.existing.flatMap((entry) => entry.keys));
  const model = fromModel.filter((proposal) => ![...keySet(proposal.keys)].some((key) => existingKeys.has(key)));
  if (model.length === 0) return { ...embedded, source: "embedded" };
  const merged = mergeProposals(embedded, model);
  return { ...merged, source: merged.proposals.length > model.length ? "both" : "model" };
}

/**
 * The model's proposals first, then the embedded ones for subjects none of them covers (no shared
 * key); the coverage points at the merged list.
 */
export function mergeProposals(embedded: LoreCompilation, model: readonly LoreProposal[]): LoreCompilation {
  const proposals: LoreProposal[] = [...model];
  const modelKeys = model.map((proposal) => keySet([proposal.name, ...proposal.keys]));
  const moved = new Map<number, number>();
  embedded.proposals.forEach((proposal, index) => {
    const keys = keySet([proposal.name, ...proposal.keys]);
    const covering = modelKeys.findIndex((set) => [...keys].some((key) => set.has(key)));
    if (covering >= 0) {
      moved.set(index, covering);
      return;
    }
    proposals.push(proposal);
    moved.set(index, proposals.length - 1);
  });
  const coverage = embedded.coverage.map((item) =>
    item.proposalIndex === null ? item : { ...item, proposalIndex: moved.get(item.proposalIndex) ?? null },
  );
  return { proposals, coverage, stale: embedded.stale };
}
