// Persona tests' words (docs/product.md, Persona tests): the page's texts and toasts and the name of
// a run's model, apart from the probes' rules (probes.ts), so that a page that only names the
// tests does not load the schema library.
export const PROBE_TEXT = {
  pageTitle: (name: string) => `Tests for ${name}`,
  section: "Tests",
  intro:
    "Probes send a message to the persona in a fresh conversation and check the reply. They run after every change to the persona, and whenever you ask.",
  limits: "Up to 30 probes; each sends up to 5 messages of 1,000 characters.",
  open: "Open Tests",
  run: "Run tests",
  suggest: "Suggest probes",
  keep: "Keep selected probes",
  add: "Add Probe",
  save: "Save Probe",
  edit: "Edit",
  delete: "Delete",
  enable: "Enable",
  disable: "Disable",
  empty: "No probes yet. 'Suggest probes' writes a suite from the persona's facts, voice, traits and lore.",
  noRun: "Not run yet.",
  running: (done: number, total: number) => (total ? `Running… ${done} of ${total} probes` : "Starting the run…"),
  queued: "Queued: the run starts in a moment.",
  rubricHint: "In plain words; judged only when a model is configured, apart from the other checks.",
  passed: "Passed",
  failed: "Failed",
  broken: "Broken",
} as const;

export const PROBE_TOASTS = {
  added: { title: "Probe Added", description: "The probe runs with the next test run." },
  saved: { title: "Probe Saved", description: "Your changes to the probe have been saved." },
  deleted: { title: "Probe Deleted", description: "The probe has been removed from the suite." },
  kept: (n: number) => ({ title: "Probes Added", description: `${n} suggested probe${n === 1 ? "" : "s"} added to the suite.` }),
  none: { title: "Nothing Kept", description: "No probe was selected." },
  started: { title: "Tests Started", description: "The probes are being sent to the persona. Results appear here as they come." },
  failed: { title: "Probe Not Saved", description: "Please fix the highlighted fields." },
} as const;

/** The model a run used, as the page names it. */
export function modelLabel(model: string | null): string {
  return !model || model === "embedded" ? "Embedded responder" : model;
}
