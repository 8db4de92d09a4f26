// A long-conversation test's chart (docs/product.md, Persona tests: long conversations): the pass
// rate of each category at each checkpoint, one line per category, drawn on the server as SVG, with
// the same figures in a table beside it (readable without JavaScript and by screen readers). A
// second run (another version's) can be laid over it: its lines are thinner and paler, and it gets
// its own table.
import {
  CONVERSATION_CATEGORY_LABELS,
  CONVERSATION_CATEGORY_STYLES,
  CONVERSATION_TEST_TEXT,
  passRate,
  scoredCategories,
  type Checkpoint,
  type ConversationCategory,
} from "~/domain/conversation-test-text";

export interface ChartRun {
  version: number;
  checkpoints: readonly Pick<Checkpoint, "turn" | "byCategory">[];
}

const WIDTH = 640;
const HEIGHT = 280;
const PAD = { left: 48, right: 16, top: 16, bottom: 40 };

function markerPath(kind: (typeof CONVERSATION_CATEGORY_STYLES)[ConversationCategory]["marker"], x: number, y: number): string {
  const r = 4;
  switch (kind) {
    case "circle":
      return `M ${x - r} ${y} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0`;
    case "square":
      return `M ${x - r} ${y - r} h ${2 * r} v ${2 * r} h ${-2 * r} Z`;
    case "diamond":
      return `M ${x} ${y - r - 1} l ${r + 1} ${r + 1} l ${-r - 1} ${r + 1} l ${-r - 1} ${-r - 1} Z`;
    case "triangle":
      return `M ${x} ${y - r - 1} l ${r + 1} ${2 * r + 1} h ${-2 * r - 2} Z`;
    case "cross":
      return `M ${x - r} ${y - r} l ${2 * r} ${2 * r} M ${x + r} ${y - r} l ${-2 * r} ${2 * r}`;
    case "bar":
      return `M ${x - r - 1} ${y - 1.5} h ${2 * r + 2} v 3 h ${-2 * r - 2} Z`;
  }
}

/** The chart's SVG: x is the checkpoint's turn, y the pass rate (0–100%). */
export function DriftChart({ run, over, id }: { run: ChartRun; over?: ChartRun | null; id: string }) {
  const categories = scoredCategories(run, ...(over ? [over] : []));
  const turns = [...new Set([...run.checkpoints, ...(over?.checkpoints ?? [])].map((c) => c.turn))].sort((a, b) => a - b);
  const last = Math.max(1, ...turns);
  const x = (turn: number) => PAD.left + ((turn - 1) / Math.max(1, last - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (rate: number) => PAD.top + (1 - rate / 100) * (HEIGHT - PAD.top - PAD.bottom);
  const lines = (chart: ChartRun, faint: boolean) =>
    categories.map((category) => {
      const style = CONVERSATION_CATEGORY_STYLES[category];
      const points = chart.checkpoints
        .map((checkpoint) => ({ turn: checkpoint.turn, rate: passRate(checkpoint, category) }))
        .filter((point): point is { turn: number; rate: number } => point.rate !== null);
      if (!points.length) return null;
      return (
        <g key={`${faint ? "over" : "run"}-${category}`} data-category={category} data-version={chart.version} opacity={faint ? 0.45 : 1}>
          <polyline
            points={points.map((point) => `${x(point.turn).toFixed(1)},${y(point.rate).toFixed(1)}`).join(" ")}
            fill="none"
            stroke={style.color}
            strokeWidth={faint ? 1.5 : 2.5}
            strokeDasharray={style.dash || undefined}
          />
          {points.map((point) => (
            <path
              key={point.turn}
              d={markerPath(style.marker, x(point.turn), y(point.rate))}
              fill={style.marker === "cross" ? "none" : style.color}
              stroke={style.color}
              strokeWidth={1.5}
            />
          ))}
        </g>
      );
    });
  const title = CONVERSATION_TEST_TEXT.chartTitle(run.version) + (over ? `, with version ${over.version} laid over it` : "");
  return (
    <figure className="min-w-0">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="h-auto w-full max-w-full rounded-lg border border-slate-200 bg-white"
        data-testid="drift-chart"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>The same figures are in the table that follows the chart.</desc>
        {[0, 25, 50, 75, 100].map((rate) => (
          <g key={rate}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(rate)} y2={y(rate)} stroke="#e2e8f0" strokeWidth={1} />
            <text x={PAD.left - 8} y={y(rate) + 4} textAnchor="end" fontSize={11} fill="#475569">
              {`${rate}%`}
            </text>
          </g>
        ))}
        {turns.map((turn) => (
          <text key={turn} x={x(turn)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle" fontSize={11} fill="#475569">
            {turn}
          </text>
        ))}
        <text x={(PAD.left + WIDTH - PAD.right) / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="#334155">
          Turn of the conversation
        </text>
        {over ? lines(over, true) : null}
        {lines(run, false)}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-hidden="true">
        {categories.map((category) => {
          const style = CONVERSATION_CATEGORY_STYLES[category];
          return (
            <span key={category} className="inline-flex items-center gap-1.5">
              <svg width="28" height="10" viewBox="0 0 28 10">
                <line x1="0" x2="28" y1="5" y2="5" stroke={style.color} strokeWidth={2.5} strokeDasharray={style.dash || undefined} />
                <path d={markerPath(style.marker, 14, 5)} fill={style.marker === "cross" ? "none" : style.color} stroke={style.color} />
              </svg>
              {CONVERSATION_CATEGORY_LABELS[category]}
            </span>
          );
        })}
        {over ? <span>{`Paler lines: version ${over.version}`}</span> : null}
      </figcaption>
    </figure>
  );
}

/** The chart's figures as a table: one row per checkpoint, one column per category ('100% (2 of 2)'). */
export function DriftTable({ run, caption }: { run: ChartRun; caption?: string }) {
  const categories = scoredCategories(run);
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm" data-testid="drift-table" data-version={run.version}>
        <caption className="mb-1 text-left text-sm font-medium text-slate-800">{caption ?? CONVERSATION_TEST_TEXT.tableCaption}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1 pr-3 font-semibold text-slate-900">
              Turn
            </th>
            {categories.map((category) => (
              <th key={category} scope="col" className="py-1 pr-3 font-semibold text-slate-900">
                {CONVERSATION_CATEGORY_LABELS[category]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {run.checkpoints.map((checkpoint) => (
            <tr key={checkpoint.turn} className="border-b border-slate-100">
              <th scope="row" className="py-1 pr-3 font-medium text-slate-900">
                {checkpoint.turn}
              </th>
              {categories.map((category) => {
                const score = checkpoint.byCategory[category];
                const rate = passRate(checkpoint, category);
                return (
                  <td
                    key={category}
                    className={`py-1 pr-3 ${rate !== null && rate < 100 ? "font-semibold text-red-800" : "text-slate-800"}`}
                    data-category={category}
                  >
                    {score && rate !== null ? `${rate}% (${score.passed} of ${score.passed + score.failed})` : "—"}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
