// Terms of Service (public page, footer link). Static content: no loader, no client code.
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

import { ContactEmail, LegalList, LegalPage, LegalSection, legalLinkClass } from "~/components/legal-page";
import { PublicLayout } from "~/components/public-layout";
import { PLANS, PRODUCT_NAME } from "~/domain/site";
import type { PublicPageHandle } from "~/services/index.server";

export const handle: PublicPageHandle = { publicPage: true };

export const meta: MetaFunction = () => [
  { title: `Terms of Service · ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `The terms that apply when you use ${PRODUCT_NAME}: accounts, the Free and Premium plans, billing, acceptable use, your content and AI-generated output.`,
  },
];

const premiumPrice = `$${PLANS.premium.priceUsd.toFixed(2)}`;
const freeLimit = PLANS.free.personaLimit;

export default function TermsOfService() {
  return (
    <PublicLayout>
      <LegalPage
        title="Terms of Service"
        updated="2026-11-21"
        intro={
          <p>
            These Terms of Service (the “Terms”) are an agreement between you and the individual developer who operates {PRODUCT_NAME}{" "}
            (“we”, “us” or “our”). They govern your use of the {PRODUCT_NAME} website and service (the “Service”). Please read them
            carefully.
          </p>
        }
      >
        <LegalSection title="1. Acceptance of these Terms">
          <p>
            By creating an account or using the Service, you agree to these Terms and confirm that you have read our{" "}
            <Link to="/privacy-policy" className={legalLinkClass}>
              Privacy Policy
            </Link>
            . If you do not agree, do not use the Service. You must be at least 16 years old, and old enough to enter into a binding
            contract where you live, to use {PRODUCT_NAME}. If you use the Service on behalf of an organisation, you confirm that you are
            authorised to accept these Terms for it.
          </p>
        </LegalSection>

        <LegalSection title="2. Beta service">
          <p>
            {PRODUCT_NAME} is in beta. Features, limits, designs and the way the Service works may change, be added or be removed as we
            improve it, and you may encounter bugs or interruptions. The Service is provided “as is” and “as available”. We recommend that
            you export copies of personas that matter to you using the export feature.
          </p>
        </LegalSection>

        <LegalSection title="3. Your account">
          <LegalList>
            <li>Give accurate, current information when you register and keep it up to date.</li>
            <li>
              An account is for one person. Do not share your account or let anyone else use it, and do not create accounts by automated
              means.
            </li>
            <li>
              Keep your password safe and do not reuse it elsewhere. If you sign in through a third-party identity provider, keep that
              account secure too.
            </li>
            <li>
              You are responsible for all activity under your account. Tell us immediately at <ContactEmail /> if you suspect unauthorised
              access.
            </li>
          </LegalList>
        </LegalSection>

        <LegalSection title="4. Plans and billing">
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Free plan</strong>: $0, with up to {freeLimit} personas. No payment details
              are required.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Premium plan</strong>: {premiumPrice} per month, with an unlimited number of
              personas. Premium is billed monthly in advance by card through our card payment provider (Stripe). Where sales tax or VAT
              applies, the price shown includes it. If we accept a bank transfer for your order, payment is due within 7 days of the order,
              and Premium starts once the payment is confirmed.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Automatic renewal</strong>: your Premium subscription renews automatically
              each month and your card is charged on each renewal date until you cancel. There is no minimum commitment.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Cancelling</strong>: you can cancel at any time from the Subscription page in
              your account, through the customer portal. Cancellation takes effect at the end of the current billing period: Premium stays
              active until then, and you are not charged again. After that your account returns to the Free plan. Personas beyond the Free
              limit are not deleted, but you may not be able to create new personas until you are back under the limit.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Refunds</strong>: because the Service is digital content made available
              immediately, payments are generally not refundable after purchase, except where the law requires otherwise or where we have
              charged you in error. See the{" "}
              <Link to="/commerce-disclosure" className={legalLinkClass}>
                Commerce Disclosure
              </Link>
              .
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Failed payments</strong>: if a renewal payment fails, the payment provider
              may retry it. If it cannot be collected, Premium may be paused or ended and your account returned to the Free plan.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Price changes</strong>: we may change prices. We will announce any change to
              the Premium price by e-mail or in the app in advance, before it applies to your next renewal, so that you can cancel first if
              you do not accept it. Continuing your subscription after the change takes effect means you accept the new price.
            </li>
          </LegalList>
        </LegalSection>

        <LegalSection title="5. Acceptable use">
          <p>You agree not to use the Service to create, store, generate or share anything that:</p>
          <LegalList>
            <li>is illegal, or promotes or facilitates illegal activity;</li>
            <li>
              impersonates a real person, or presents a persona as a real person, without that person’s consent, or is designed to deceive
              others about who they are dealing with;
            </li>
            <li>
              sexualises minors in any way, including any sexual content involving anyone who is, or appears to be, under 18 (we will remove
              such content, close the account and report it to the authorities);
            </li>
            <li>harasses, threatens, bullies, defames or promotes hatred or violence against any person or group;</li>
            <li>infringes anyone’s copyright, trademark, privacy or other rights;</li>
            <li>contains malware or is used for spam, fraud or phishing.</li>
          </LegalList>
          <p>You also agree not to:</p>
          <LegalList>
            <li>
              try to break, probe or bypass the Service’s security, authentication, plan limits or rate limits, or access another user’s
              account or data;
            </li>
            <li>
              overload the Service, scrape it, or access it by automated means other than those we provide, or resell it without our written
              permission;
            </li>
            <li>use the Service or its output to build a competing product by extracting data in bulk.</li>
          </LegalList>
          <p>
            We may remove content or limit access when we reasonably believe these rules have been broken. If you see content that breaks
            them, please report it to <ContactEmail subject="Report" />.
          </p>
        </LegalSection>

        <LegalSection title="6. Your content and ownership">
          <p>
            You own the personas you create and the content you put into the Service, including traits you select, text you write, chat
            messages and, to the extent the law allows, the backstories and images generated for you (together, “your content”). We claim no
            ownership of your content.
          </p>
          <p>
            You grant us a limited, non-exclusive, worldwide, royalty-free licence to host, store, copy, process, transmit and display your
            content only as needed to provide, secure and improve the Service for you, including sending it to our service providers such as
            the AI model provider as described in the Privacy Policy. This licence ends when you delete the content or your account, except
            for copies held in backups for a limited time or that we must keep by law. We do not use your content to train AI models, and we
            do not publish it.
          </p>
          <p>You are responsible for your content and confirm that you have the rights needed to use it in the Service.</p>
          <p>
            The Service itself, including its software, design, text and the {PRODUCT_NAME} name and logo, belongs to us and is protected by
            law. These Terms give you a personal, non-transferable right to use the Service; they do not transfer any of our rights to you.
          </p>
        </LegalSection>

        <LegalSection title="7. AI-generated output">
          <LegalList>
            <li>
              Backstories, images and chat replies are generated automatically by AI models. They may be inaccurate, incomplete,
              inconsistent, biased or unexpected, and they do not express our views.
            </li>
            <li>
              Review output before you rely on it or publish it. You are responsible for how you use it, including making sure your use
              complies with the law and with the rules of any platform where you publish it.
            </li>
            <li>
              Output is not guaranteed to be unique. Similar prompts can produce similar or identical results for other users, and we cannot
              guarantee that output does not resemble existing works.
            </li>
            <li>Personas are fictional characters; chatting with one is not advice from a professional.</li>
          </LegalList>
        </LegalSection>

        <LegalSection title="8. Availability">
          <p>
            We aim to keep the Service available at all times, but we do not guarantee that it will be uninterrupted or error-free.
            Maintenance, updates, failures of our providers and events beyond our control may cause interruptions. Premium features,
            including generation speed and volume, may be limited by traffic: at busy times, requests may be queued, slowed or temporarily
            limited to keep the Service fair and stable for everyone.
          </p>
        </LegalSection>

        <LegalSection title="9. Termination">
          <p>
            You may stop using the Service at any time and delete your account from your account settings. Deleting your account removes
            your personas, chats and images; cancel any Premium subscription first, since deletion cannot be undone.
          </p>
          <p>
            We may suspend or close your account if you seriously or repeatedly break these Terms, if the law requires it, or if your use
            creates a risk to the Service or to others. Where reasonable, we will tell you first and give you a chance to fix the issue and
            to export your content. If we close your account without cause, we will refund the unused part of any prepaid Premium period. We
            may also end the Service entirely; if we do, we will give you reasonable advance notice so you can export your content, and
            refund any unused prepaid period.
          </p>
          <p>
            Sections that by their nature should continue after termination (including ownership, disclaimers, limitation of liability and
            governing law) survive it.
          </p>
        </LegalSection>

        <LegalSection title="10. Disclaimers">
          <p>
            To the fullest extent permitted by law, the Service and all output are provided “as is” and “as available”, without warranties
            of any kind, whether express or implied, including warranties of merchantability, fitness for a particular purpose, accuracy and
            non-infringement. We do not warrant that the Service will meet your requirements or that your content will never be lost.
            Nothing in these Terms limits rights you have as a consumer that cannot be excluded by contract.
          </p>
        </LegalSection>

        <LegalSection title="11. Limitation of liability">
          <p>
            To the fullest extent permitted by law, we are not liable for any indirect, incidental, special, consequential or punitive
            damages, or for loss of profits, revenue, data or goodwill, arising from or related to your use of the Service. Our total
            liability for all claims relating to the Service is limited to the greater of the amount you paid us in the twelve months before
            the event giving rise to the claim, or US$50.
          </p>
          <p>
            These limits do not apply to liability that cannot be limited by law, such as liability for death or personal injury caused by
            negligence, or for fraud, intent or gross negligence.
          </p>
        </LegalSection>

        <LegalSection title="12. Governing law and disputes">
          <p>
            These Terms are governed by the laws of the place where the developer who operates {PRODUCT_NAME} has their principal place of
            business, without regard to its conflict-of-law rules. Disputes will be heard by the competent courts of that place. If you are
            a consumer, you also keep the protection of the mandatory laws of the country where you live and may bring proceedings there
            where the law allows. Before starting any formal proceedings, please contact us so we can try to resolve the issue informally.
          </p>
        </LegalSection>

        <LegalSection title="13. Changes to these Terms">
          <p>
            We may update these Terms, for example when we add features or when the law changes. The “Last updated” date at the top shows
            when they last changed. For material changes, we will notify you by e-mail or in the app in advance, before they take effect. If
            you continue to use the Service after that, the new Terms apply; if you do not agree, you can cancel and delete your account
            before they take effect.
          </p>
        </LegalSection>

        <LegalSection title="14. General">
          <p>
            These Terms, together with the Privacy Policy and the Commerce Disclosure, are the entire agreement between you and us about the
            Service. If any part is found unenforceable, the rest stays in effect. Our failure to enforce a provision is not a waiver of it.
            You may not transfer your rights under these Terms without our consent; we may transfer ours to a successor who takes over the
            Service, with notice to you.
          </p>
        </LegalSection>

        <LegalSection title="15. Contact">
          <p>
            Questions about these Terms, billing or your account: <ContactEmail subject="Terms of Service" />.
          </p>
        </LegalSection>
      </LegalPage>
    </PublicLayout>
  );
}
