// Commerce Disclosure (public page, footer link): the seller information an online shop
// must publish. Static content: no loader, no client code.
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

import { ContactEmail, LegalPage, LegalSection, legalLinkClass } from "~/components/legal-page";
import { PublicLayout } from "~/components/public-layout";
import { PLANS, PRODUCT_NAME } from "~/domain/site";
import type { PublicPageHandle } from "~/services/index.server";

export const handle: PublicPageHandle = { publicPage: true };

export const meta: MetaFunction = () => [
  { title: `Commerce Disclosure · ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `Seller information for ${PRODUCT_NAME}: contact, prices, payment methods and timing, delivery, refunds and cancellation.`,
  },
];

const premiumPrice = `$${PLANS.premium.priceUsd.toFixed(2)}`;
const freePrice = `$${PLANS.free.priceUsd}`;

type Disclosure = { term: string; details: React.ReactNode };

const disclosures: Disclosure[] = [
  {
    term: "Seller",
    details: (
      <>
        <p>An individual developer (sole proprietor) operating {PRODUCT_NAME}.</p>
        <p className="mt-2">
          The seller’s name, address and phone number will be disclosed without delay upon request to <ContactEmail />.
        </p>
      </>
    ),
  },
  {
    term: "Contact e-mail",
    details: (
      <p>
        <ContactEmail />
      </p>
    ),
  },
  {
    term: "Business hours",
    details: <p>10:00–18:00 on weekdays (excluding public holidays)</p>,
  },
  {
    term: "Price",
    details: (
      <p>
        {PLANS.premium.name}: {premiumPrice} per month (tax included where applicable); {PLANS.free.name} plan: {freePrice}
      </p>
    ),
  },
  {
    term: "Additional fees",
    details: <p>Internet connection and communication costs needed to use the service are borne by the customer.</p>,
  },
  {
    term: "Accepted payment methods",
    details: (
      <ul className="list-disc space-y-1 pl-6 marker:text-slate-500">
        <li>Credit or debit card, via our card payment provider (Stripe)</li>
        <li>Bank transfer</li>
      </ul>
    ),
  },
  {
    term: "Payment timing",
    details: (
      <ul className="list-disc space-y-1 pl-6 marker:text-slate-500">
        <li>Card: charged at purchase and at each monthly renewal.</li>
        <li>Bank transfer: payment is due within 7 days of the order.</li>
      </ul>
    ),
  },
  {
    term: "Delivery timing",
    details: <p>Digital content: available immediately after payment is confirmed.</p>,
  },
  {
    term: "Returns and refunds",
    details: (
      <p>
        Because of the nature of digital content, refunds are generally not accepted after purchase. You can cancel anytime; the plan stays
        active until the end of the paid period.
      </p>
    ),
  },
  {
    term: "Cancellation method",
    details: (
      <p>
        Cancel from the Subscription page in your account, via the customer portal. Cancellation takes effect at the end of the current
        billing period, and you are not charged again.
      </p>
    ),
  },
  {
    term: "Operating environment",
    details: <p>A current web browser. The service works with or without JavaScript.</p>,
  },
];

export default function CommerceDisclosure() {
  return (
    <PublicLayout>
      <LegalPage
        title="Commerce Disclosure"
        updated="2026-11-21"
        intro={
          <p>
            Information about the seller and the terms of sale for {PRODUCT_NAME} subscriptions, published as required for online sales.
          </p>
        }
      >
        <LegalSection title="Seller information and terms of sale">
          <dl className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white">
            {disclosures.map(({ term, details }) => (
              <div key={term} className="grid gap-1 px-5 py-4 sm:grid-cols-3 sm:gap-6">
                <dt className="font-semibold text-slate-900">{term}</dt>
                <dd className="text-slate-700 sm:col-span-2">{details}</dd>
              </div>
            ))}
          </dl>
          <p>
            The full conditions of use are set out in the{" "}
            <Link to="/terms-of-service" className={legalLinkClass}>
              Terms of Service
            </Link>
            , and the way we handle personal data in the{" "}
            <Link to="/privacy-policy" className={legalLinkClass}>
              Privacy Policy
            </Link>
            .
          </p>
        </LegalSection>
      </LegalPage>
    </PublicLayout>
  );
}
