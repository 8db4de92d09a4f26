import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { PricingCards } from "~/components/pricing-cards";
import { PublicLayout } from "~/components/public-layout";
import { BookIcon, ChatIcon, DownloadIcon, ImageIcon, SparklesIcon, UserIcon } from "~/components/ui/icons";
import { PRODUCT_NAME } from "~/domain/site";
import { AuthCard } from "~/components/auth-layout";
import {
  navigationFromAnotherSite,
  readFormData,
  redirectWithToast,
  requestContext,
  signInLinkUser,
  optionalUser,
  redirectSignedIn,
  responseHeaders,
  type PublicPageHandle,
} from "~/services/index.server";
import { Button, buttonClass } from "~/components/ui/button";

export const handle: PublicPageHandle = { publicPage: true };

export const meta: MetaFunction = () => [
  { title: `${PRODUCT_NAME} (Beta): design AI character personas` },
  {
    name: "description",
    content:
      "Pick personality traits, generate an 800+ word backstory and a reference image, chat with your persona and export it. Free for up to 10 personas.",
  },
];

/**
 * `/?token=…` (docs/product.md, public routes) stores the token as the session, cleans the
 * address and goes to /dashboard; signed-in visitors go to /dashboard; everyone else sees the
 * landing page. A sign-in link is a session handed over, so it is taken only from this site or
 * from the visitor's own hands (a typed address, a bookmark): a link another site opened is not
 * used. It never silently replaces someone else's session either: a creator signed in as
 * another account is asked first.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    if (navigationFromAnotherSite(request)) return redirectWithToast("/", LINK_TOASTS.fromAnotherSite);
    const ctx = requestContext(request, context);
    const linked = await signInLinkUser(ctx, token);
    if (!linked) return redirectWithToast("/login", { type: "error", ...LINK_TOASTS.invalid });
    const { user } = await optionalUser(request, context);
    if (!user) return redirectSignedIn(ctx, { accessToken: token }, "/dashboard");
    if (user.id === linked.id) throw redirect("/dashboard", { headers: responseHeaders(ctx) });
    return data(
      { switchAccount: { to: linked.email, from: user.email, token } },
      { headers: responseHeaders(ctx, { "Cache-Control": "no-store" }) },
    );
  }
  const { user, ctx } = await optionalUser(request, context);
  if (user) throw redirect("/dashboard", { headers: responseHeaders(ctx) });
  return null;
}

/** 'Sign in as {email}': the creator chose the account of the link over the one signed in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = form.get("token");
  const ctx = requestContext(request, context);
  const linked = typeof token === "string" ? await signInLinkUser(ctx, token) : null;
  if (!linked || typeof token !== "string") return redirectWithToast("/login", { type: "error", ...LINK_TOASTS.invalid });
  return redirectSignedIn(ctx, { accessToken: token }, "/dashboard");
}

const LINK_TOASTS = {
  invalid: { title: "Sign In Failed", description: "That sign-in link is not valid any more. Please sign in." },
  fromAnotherSite: {
    type: "info",
    title: "Sign-in link not used",
    description: "A sign-in link opened from another site is never used. Sign in here, or open the link from your address bar.",
  },
} as const;

const features = [
  {
    icon: UserIcon,
    title: "Personality by design",
    text: "Choose from 36 traits in six categories, from Extroversion to Content Style, or let auto-select build a balanced mix.",
  },
  {
    icon: BookIcon,
    title: "Backstories of 800+ words",
    text: "Generate a full narrative shaped by your persona's type, age, interests and every trait you picked, then edit it freely.",
  },
  {
    icon: ImageIcon,
    title: "Reference images in 5 styles",
    text: "Photorealistic, anime, digital art, cinematic or minimalist: a consistent look for thumbnails, models and posts.",
  },
  {
    icon: ChatIcon,
    title: "Interactive chat",
    text: "Talk to your persona to test its voice before your audience does. The conversation stays with the persona.",
  },
  {
    icon: DownloadIcon,
    title: "Export anywhere",
    text: "Download profiles as Text, JSON, Markdown or YAML and take your character to any tool you use.",
  },
  {
    icon: SparklesIcon,
    title: "Fast on any browser",
    text: "Server-rendered and light: every step works on slow connections and even with JavaScript turned off.",
  },
];

const sampleChat = [
  { from: "user", text: "Hi Luna! What are you streaming tonight?" },
  {
    from: "persona",
    text: "Hey hey! Tonight it's a cozy indie puzzle game and a little lo-fi music break at the halfway mark. Bring snacks!",
  },
  { from: "user", text: "How do you stay so upbeat on long streams?" },
  {
    from: "persona",
    text: "Honestly? My chat. You all keep me curious, and I plan short breaks so I can come back with fresh energy.",
  },
] as const;

export default function Landing() {
  const loaderData = useLoaderData<typeof loader>();
  if (loaderData?.switchAccount) return <SwitchAccount {...loaderData.switchAccount} />;
  return (
    <PublicLayout>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-800 shadow-sm">
              <SparklesIcon /> Now in beta
            </p>
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
              Create AI characters with real personality
            </h1>
            <p className="mt-6 text-lg text-slate-700">
              {PRODUCT_NAME} helps virtual influencers, vtubers, educators and companion builders design unique AI personas: traits, a rich
              backstory, a reference image, a voice you can chat with, and exports for every tool.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/register" className={buttonClass("primary", "xl")}>
                Get Started
              </Link>
              <Link to="/#pricing" className={buttonClass("secondary", "xl")}>
                See pricing
              </Link>
            </div>
            <p className="mt-4 text-sm text-slate-600">Free for up to 10 personas. No card required.</p>
          </div>
          <SampleChat />
        </div>
      </section>

      <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 py-16 md:py-24">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="features-heading" className="text-center text-3xl font-bold text-slate-900">
            Everything a persona needs
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-center text-slate-700">
            A four-step wizard takes you from a name to a complete character, and the persona page keeps it all in one place.
          </p>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map(({ icon: FeatureIcon, title, text }) => (
              <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-brand-100 text-xl text-brand-800">
                  <FeatureIcon />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="pricing" aria-labelledby="pricing-heading" className="scroll-mt-20 bg-white py-16 md:py-24">
        <div className="mx-auto max-w-4xl px-4 sm:px-6">
          <h2 id="pricing-heading" className="text-center text-3xl font-bold text-slate-900">
            Simple pricing
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-center text-slate-700">
            Both plans include narratives of 800+ words, reference images in 5 styles, interactive chat and export.
          </p>
          <div className="mt-12">
            <PricingCards />
          </div>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="px-4 py-16 sm:px-6 md:py-24">
        <div className="mx-auto max-w-4xl rounded-3xl bg-brand-800 px-6 py-12 text-center text-white sm:px-12">
          <h2 id="cta-heading" className="text-3xl font-bold">
            Ready to create some magic?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-brand-100">
            Your first persona takes a few minutes. Start free and upgrade only if you need more than 10.
          </p>
          <Link to="/register" className="mt-8 inline-block rounded-lg bg-white px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
            Get Started
          </Link>
        </div>
      </section>
    </PublicLayout>
  );
}

function SampleChat() {
  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-5 shadow-lg" aria-labelledby="sample-chat-caption">
      <figcaption id="sample-chat-caption" className="flex items-center gap-3 border-b border-slate-100 pb-4">
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-200 font-bold text-brand-900" aria-hidden="true">
          L
        </span>
        <span>
          <span className="block font-semibold text-slate-900">Luna</span>
          <span className="block text-sm text-slate-600">AIVTuber · a sample conversation</span>
        </span>
      </figcaption>
      <ol className="mt-4 space-y-3">
        {sampleChat.map((message, index) => (
          <li key={index} className={message.from === "user" ? "flex justify-end" : "flex justify-start"}>
            <p
              className={
                message.from === "user"
                  ? "max-w-[85%] rounded-2xl rounded-br-sm bg-brand-700 px-4 py-2 text-white"
                  : "max-w-[85%] rounded-2xl rounded-bl-sm bg-slate-100 px-4 py-2 text-slate-900"
              }
            >
              <span className="sr-only">{message.from === "user" ? "You: " : "Luna: "}</span>
              {message.text}
            </p>
          </li>
        ))}
      </ol>
    </figure>
  );
}

/** A sign-in link for another account than the one signed in: the creator chooses. */
function SwitchAccount({ to, from, token }: { to: string; from: string; token: string }) {
  return (
    <AuthCard
      title={`Sign in as ${to}?`}
      subtitle={
        <>
          You are signed in as <strong className="break-all">{from}</strong>. This sign-in link is for{" "}
          <strong className="break-all">{to}</strong>.
        </>
      }
    >
      <div className="grid gap-3">
        <Form method="post" action="/?index" reloadDocument>
          <input type="hidden" name="token" value={token} />
          <Button type="submit" size="base" className="w-full">
            Sign in as {to}
          </Button>
        </Form>
        <Link to="/dashboard" className={buttonClass("secondary", "base", "block w-full")}>
          Stay signed in as {from}
        </Link>
      </div>
    </AuthCard>
  );
}
