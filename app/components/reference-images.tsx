// The persona page's reference images (docs/product.md, Reference images): the image box (the image, or the
// no-image box with the style selector and 'Generate Reference Image'), its generating and
// failed states, and the images block with the primary and the secondary image.
//
// Without JavaScript the style selector is a form with a Save button and Generate is a form
// post; while generating, the page refreshes itself every 3 seconds (a <meta> refresh inside
// <noscript>, so it never fires with JavaScript) for up to 60 seconds. With JavaScript the style
// saves as soon as it changes (PATCH …/image-style), Generate calls POST …/generate-images and
// the page polls GET /api/personas/{id} every 3 seconds until the images are there, for up to
// 60 seconds, with the toasts of docs/product.md, Reference images.
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

import {
  failedToast,
  IMAGE_MESSAGES,
  IMAGE_POLL_LIMIT_MS,
  IMAGE_SIZES,
  IMAGE_POLL_MS,
  IMAGE_STYLE_LABELS,
  IMAGE_STYLES,
  IMAGE_TEXT,
  IMAGE_TOASTS,
  type ImageGenerationState,
  type ImageSlot,
  type ImageStyle,
} from "~/domain/images";

import { PERSONA_PAGE_TEXT } from "~/domain/persona-display";

import { useHoldToastRoom, useToast } from "./toaster";
import { ImageIcon } from "./ui/icons";
import { Button, buttonClass } from "./ui/button";

export interface ImageSourceView {
  src: string;
  srcSet: string;
  width: number;
  height: number;
}

export interface ReferenceImagesProps {
  persona: { id: string; name: string; status: string; statusBeforeArchive: string | null; imageStyle: string };
  images: Record<ImageSlot, ImageSourceView | null>;
  state: ImageGenerationState;
  /** How long the running generation had run when the page's data was read (ms; 0 when none runs), to tell whether it is past the polling limit. */
  elapsed: number;
  /** A failed image action without JavaScript (bad style, a draft, already running). */
  failure?: { field?: string | null } | null;
}

function isDraft(persona: ReferenceImagesProps["persona"]) {
  return persona.status === "in_progress" || persona.statusBeforeArchive === "in_progress";
}

function Spinner() {
  return (
    <span
      className="inline-block h-8 w-8 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-none"
      aria-hidden="true"
    />
  );
}

function Picture({ source, alt, priority }: { source: ImageSourceView; alt: string; priority?: boolean }) {
  return (
    <img
      src={source.src}
      srcSet={source.srcSet}
      sizes={IMAGE_SIZES}
      width={source.width}
      height={source.height}
      alt={alt}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "sync" : "async"}
      {...(priority ? { fetchpriority: "high" } : {})}
      className="h-full w-full rounded-2xl object-cover"
    />
  );
}

/** Generation as the browser sees it: the server's state, then what polling found. */
type Phase = "idle" | "generating" | "failed" | "slow";

function usePolling(personaId: string, initial: ImageGenerationState) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const [phase, setPhase] = useState<Phase>(initial.status);
  const [reason, setReason] = useState<string | null>(initial.error);
  const startedAt = useRef<number>(0);

  // The server's state wins after each load (a revalidation after the images arrived).
  useEffect(() => {
    setPhase(initial.status);
    setReason(initial.error);
  }, [initial.status, initial.error, initial.startedAt]);

  useEffect(() => {
    if (phase !== "generating") return;
    startedAt.current = Date.now();
    let stopped = false;
    const timer = setInterval(async () => {
      if (stopped) return;
      if (Date.now() - startedAt.current >= IMAGE_POLL_LIMIT_MS) {
        stopped = true;
        clearInterval(timer);
        setPhase("slow");
        toast({ type: "info", ...IMAGE_TOASTS.status });
        return;
      }
      try {
        const response = await fetch(`/api/personas/${personaId}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!response.ok || stopped) return;
        const body = (await response.json()) as { imageUrl?: string | null; imageGeneration?: ImageGenerationState };
        const state = body.imageGeneration;
        if (!state || state.status === "generating" || stopped) return;
        stopped = true;
        clearInterval(timer);
        if (state.status === "failed") {
          setPhase("failed");
          setReason(state.error);
          toast({ type: "error", ...failedToast(state.error) });
        } else {
          setPhase("idle");
          toast({ type: "success", ...IMAGE_TOASTS.complete });
        }
        revalidator.revalidate();
      } catch {
        // A missed poll is tried again in 3 seconds.
      }
    }, IMAGE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase, personaId]);

  return { phase, setPhase, reason, setReason };
}

function StyleSelector({ persona, failure }: { persona: ReferenceImagesProps["persona"]; failure?: ReferenceImagesProps["failure"] }) {
  const hydrated = useHydrated();
  const toast = useToast();
  const [style, setStyle] = useState(persona.imageStyle);
  useEffect(() => setStyle(persona.imageStyle), [persona.imageStyle]);
  const invalid = failure?.field === "imageStyle";

  const save = async (next: string) => {
    const before = style;
    setStyle(next);
    try {
      const response = await fetch(`/api/personas/${persona.id}/image-style`, {
        method: "PATCH",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ imageStyle: next }),
      });
      if (!response.ok) throw new Error(String(response.status));
    } catch {
      setStyle(before);
      toast({ type: "error", ...IMAGE_TOASTS.styleFailed });
    }
  };

  return (
    <Form method="post" className="flex w-full flex-wrap items-end justify-center gap-2" preventScrollReset>
      <input type="hidden" name="intent" value="image-style" />
      <div className="flex flex-col text-left">
        <label htmlFor="image-style" className="text-sm font-medium text-slate-700">
          {IMAGE_TEXT.styleLabel}
        </label>
        <select
          id="image-style"
          name="imageStyle"
          value={style}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "image-style-error" : undefined}
          onChange={(event) => {
            if (hydrated) void save(event.target.value);
            else setStyle(event.target.value);
          }}
          className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
        >
          {IMAGE_STYLES.map((value) => (
            <option key={value} value={value}>
              {IMAGE_STYLE_LABELS[value as ImageStyle]}
            </option>
          ))}
        </select>
      </div>
      {/* Without JavaScript the choice is saved by this button; with it, on change. The button keeps
          its room once the page hydrates, hidden, so the row does not move (no layout shift). */}
      <button
        type="submit"
        aria-hidden={hydrated || undefined}
        tabIndex={hydrated ? -1 : undefined}
        className={buttonClass("secondary", "sm", hydrated ? "invisible" : "")}
      >
        {IMAGE_TEXT.save}
      </button>
      {invalid ? (
        <p id="image-style-error" className="w-full text-center text-sm text-red-700">
          {IMAGE_MESSAGES.invalidStyle}
        </p>
      ) : null}
    </Form>
  );
}

function GenerateButton({ persona, label, onStarted }: { persona: ReferenceImagesProps["persona"]; label: string; onStarted: () => void }) {
  const hydrated = useHydrated();
  const toast = useToast();
  const holdToastRoom = useHoldToastRoom();
  const [busy, setBusy] = useState(false);
  return (
    <Form
      method="post"
      preventScrollReset
      onSubmit={async (event) => {
        if (!hydrated) return;
        event.preventDefault();
        setBusy(true);
        const release = holdToastRoom();
        try {
          const response = await fetch(`/api/personas/${persona.id}/generate-images`, {
            method: "POST",
            credentials: "same-origin",
            headers: { Accept: "application/json" },
          });
          const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
          if (response.status === 202 || body?.code === "generation_running") {
            if (response.status === 202) toast({ type: "success", ...IMAGE_TOASTS.started });
            onStarted();
          } else {
            toast({ type: "error", title: IMAGE_TOASTS.failed.title, description: body?.message ?? IMAGE_TOASTS.failed.description });
          }
        } catch {
          toast({ type: "error", ...IMAGE_TOASTS.failed });
        } finally {
          release();
          setBusy(false);
        }
      }}
    >
      <input type="hidden" name="intent" value="generate-images" />
      <Button type="submit" disabled={busy} size="md">
        {label}
      </Button>
    </Form>
  );
}

/** The image box at the top of the Full Profile tab. */
export function ReferenceImageBox({ persona, images, state, elapsed, failure }: ReferenceImagesProps) {
  const hydrated = useHydrated();
  const { phase, setPhase, reason } = usePolling(persona.id, state);
  const draft = isDraft(persona);
  // Without JavaScript the page refreshes itself while a generation is younger than the polling limit.
  const refreshing = !hydrated && state.status === "generating" && elapsed < IMAGE_POLL_LIMIT_MS;
  const shown: Phase = hydrated ? phase : state.status === "generating" && !refreshing ? "slow" : state.status;
  const primary = images.primary;

  return (
    <section aria-labelledby="reference-image-title" className="space-y-3" data-testid="image-box">
      <h2 id="reference-image-title" className="sr-only">
        {IMAGE_TEXT.boxTitle}
      </h2>
      {refreshing ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${IMAGE_POLL_MS / 1000};url=/persona/${persona.id}?image=started`} />
        </noscript>
      ) : null}
      <div
        className={`relative flex aspect-square flex-col items-center justify-center gap-3 rounded-2xl text-slate-600 ${primary ? "bg-slate-100" : "border-2 border-dashed border-slate-300 bg-slate-50 p-4 text-center"}`}
      >
        {primary ? <Picture source={primary} alt={IMAGE_TEXT.alt(persona.name, "primary")} priority /> : null}
        {shown === "generating" ? (
          <div
            role="status"
            className={`flex flex-col items-center gap-2 ${primary ? "absolute inset-0 justify-center rounded-2xl bg-white/85" : ""}`}
          >
            <Spinner />
            <p className="font-medium text-slate-800">{IMAGE_TEXT.generating}</p>
            <p className="text-sm">{IMAGE_TEXT.mayTake}</p>
          </div>
        ) : shown === "slow" ? (
          <div
            role="status"
            className={`flex flex-col items-center gap-2 p-4 ${primary ? "absolute inset-0 justify-center rounded-2xl bg-white/90" : ""}`}
          >
            <p className="font-medium text-slate-800">{IMAGE_TOASTS.status.title}</p>
            <p className="text-sm">{IMAGE_TEXT.tookLong}</p>
            <a href={`/persona/${persona.id}`} className="text-sm font-medium text-brand-800 underline">
              {IMAGE_TEXT.refresh}
            </a>
          </div>
        ) : primary ? null : (
          <>
            <ImageIcon className="text-5xl" />
            <p>{PERSONA_PAGE_TEXT.noImage}</p>
            {draft ? <p className="text-sm font-medium text-slate-700">{IMAGE_TEXT.draft}</p> : null}
          </>
        )}
      </div>
      {shown === "failed" ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">{IMAGE_TOASTS.failed.title}</p>
          <p>{IMAGE_TOASTS.failed.description}</p>
          {(reason ?? state.error) ? <p className="mt-1">{IMAGE_TEXT.failedReason((reason ?? state.error)!)}</p> : null}
        </div>
      ) : null}
      {draft || shown === "generating" ? null : (
        <div className="flex flex-col items-center gap-3">
          <StyleSelector persona={persona} failure={failure} />
          <GenerateButton
            persona={persona}
            label={primary ? IMAGE_TEXT.regenerate : IMAGE_TEXT.generate}
            onStarted={() => setPhase("generating")}
          />
        </div>
      )}
    </section>
  );
}

/** The images block: the primary and the secondary image (or why there are none). */
export function ReferenceImagesBlock({ persona, images }: Pick<ReferenceImagesProps, "persona" | "images">) {
  const slots = (["primary", "secondary"] as const).filter((slot) => images[slot]);
  return (
    <section aria-labelledby="reference-images-title" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="reference-images-title" className="text-lg font-semibold text-slate-900">
        {IMAGE_TEXT.imagesTitle}
      </h2>
      <div className="mt-3">
        {isDraft(persona) ? (
          <p className="text-slate-600">{IMAGE_TEXT.draft}</p>
        ) : slots.length === 0 ? (
          <p className="text-slate-600">{IMAGE_TEXT.noImages}</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {slots.map((slot) => (
              <li key={slot}>
                <figure>
                  <div className="aspect-square">
                    <Picture source={images[slot]!} alt={IMAGE_TEXT.alt(persona.name, slot)} />
                  </div>
                  <figcaption className="mt-2 text-sm text-slate-600">
                    {slot === "primary" ? IMAGE_TEXT.primary : IMAGE_TEXT.secondary}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
