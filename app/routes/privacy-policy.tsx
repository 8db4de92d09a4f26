// Privacy Policy (public page, footer link). Static content: no loader, no client code.
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

import { ContactEmail, LegalList, LegalPage, LegalSection, LegalSubheading, legalLinkClass } from "~/components/legal-page";
import { PublicLayout } from "~/components/public-layout";
import { PRODUCT_NAME } from "~/domain/site";
import type { PublicPageHandle } from "~/services/index.server";

export const handle: PublicPageHandle = { publicPage: true };

export const meta: MetaFunction = () => [
  { title: `Privacy Policy · ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `How ${PRODUCT_NAME} collects, uses, shares and protects your personal data, and the choices and rights you have.`,
  },
];

export default function PrivacyPolicy() {
  return (
    <PublicLayout>
      <LegalPage
        title="Privacy Policy"
        updated="2026-11-21"
        intro={
          <p>
            This Privacy Policy explains what personal data {PRODUCT_NAME} collects when you use the website and the service, why we collect
            it, who we share it with, how long we keep it and what rights you have. We collect only what we need to run the service, and we
            do not sell your data.
          </p>
        }
      >
        <LegalSection title="1. Who we are">
          <p>
            {PRODUCT_NAME} is operated by an individual developer as a sole proprietor (referred to here as “we”, “us” or “our”). We are the
            controller responsible for the personal data described in this policy. {PRODUCT_NAME} is currently in beta.
          </p>
          <p>
            For any question about privacy, or to exercise any of your rights, write to <ContactEmail subject="Privacy" />. We reply to
            every request, normally within a few business days and at the latest within one month.
          </p>
        </LegalSection>

        <LegalSection title="2. Data we collect">
          <LegalSubheading>Account data</LegalSubheading>
          <LegalList>
            <li>Your name (or display name) and your e-mail address.</li>
            <li>
              Your password, if you register with e-mail and password. We never store it in readable form: only a one-way cryptographic hash
              is kept, so nobody, including us, can read it.
            </li>
            <li>
              If you sign in through a third-party identity provider, that provider handles your credentials. We receive only the basic
              profile details it shares with us, such as your name, e-mail address and an account identifier.
            </li>
            <li>Your plan (Free or Premium), subscription status and account settings.</li>
          </LegalList>

          <LegalSubheading>Content you create</LegalSubheading>
          <LegalList>
            <li>Personas: names, types, ages, interests, selected personality traits, backstories and any text you write or edit.</li>
            <li>Chat messages you send to your personas and the replies generated for them.</li>
            <li>Reference images generated for your personas.</li>
          </LegalList>
          <p>
            Please do not put sensitive personal information (for example health data, or personal details about real people) into personas
            or chats. The service does not need it.
          </p>

          <LegalSubheading>Billing data</LegalSubheading>
          <p>
            If you subscribe to Premium, payment is handled by our card payment provider (Stripe). You enter your card details directly with
            the provider; we never see or store your full card number or security code. We receive and keep only what we need to manage your
            subscription: a customer and subscription identifier, the plan, the subscription status and renewal dates, and basic transaction
            records such as amounts, dates and, where provided, the card brand and last four digits.
          </p>

          <LegalSubheading>Technical data</LegalSubheading>
          <LegalList>
            <li>
              Cookies that keep you signed in and that carry one-time notifications (for example “Persona saved”) from one page to the next.
              See “Cookies” below.
            </li>
            <li>
              Server logs created automatically when you use the site: IP address, date and time of the request, the page or action
              requested, response status, browser type (user agent) and error details.
            </li>
          </LegalList>

          <LegalSubheading>Messages you send us</LegalSubheading>
          <p>If you contact us by e-mail, we receive your e-mail address and whatever you choose to include.</p>
        </LegalSection>

        <LegalSection title="3. Why we use your data and our legal bases">
          <p>Where data protection laws such as the GDPR apply, we rely on the following legal bases for each purpose:</p>
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Providing the service</strong> (creating your account, signing you in,
              storing and displaying your personas, generating backstories, images and chat replies, exporting your data): necessary to
              perform our contract with you, the{" "}
              <Link to="/terms-of-service" className={legalLinkClass}>
                Terms of Service
              </Link>
              .
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Billing and subscription management</strong>: necessary to perform the
              contract, and to comply with tax and accounting obligations (legal obligation).
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Service e-mails</strong> (account confirmation, password reset, receipts,
              important changes to the service or these terms): necessary to perform the contract.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Security, abuse prevention and troubleshooting</strong> (server logs, rate
              limits, investigating misuse): our legitimate interest in keeping the service safe, reliable and available.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Answering your messages</strong>: our legitimate interest in responding to
              you, or steps you ask us to take before entering a contract.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Complying with the law</strong> (for example responding to lawful requests
              from authorities): legal obligation.
            </li>
          </LegalList>
          <p>
            We do not use your data for advertising, we do not build advertising profiles, and we do not make decisions about you based
            solely on automated processing that have legal or similarly significant effects.
          </p>
        </LegalSection>

        <LegalSection title="4. AI processing">
          <p>
            {PRODUCT_NAME} uses artificial intelligence to generate backstories, reference images and chat replies. When an AI model
            provider is configured for the service, the persona details and chat messages needed for a request (such as the persona’s name,
            type, traits, backstory and your latest messages) are sent to that provider to generate the text or image, and the result is
            sent back to us and stored with your persona.
          </p>
          <LegalList>
            <li>We only send the content needed for the feature you use, at the moment you use it.</li>
            <li>
              We do not use your personas, chats or images to train AI models. Where an AI provider offers the choice, we opt out of any use
              of submitted content for training its models.
            </li>
            <li>
              Generated output is produced automatically and may be inaccurate. It is stored in your account only so you can see, edit and
              export it.
            </li>
          </LegalList>
        </LegalSection>

        <LegalSection title="5. Who we share data with">
          <p>
            We do not sell or rent your personal data. We share it only with service providers (processors) that help us run {PRODUCT_NAME},
            under contracts that allow them to use the data only on our instructions and to protect it:
          </p>
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Hosting provider</strong>: runs the servers that deliver the website and
              store server logs.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Database and authentication provider</strong>: stores your account and
              content and handles sign-in, including sign-in through third-party identity providers.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Card payment provider (Stripe)</strong>: processes payments, manages
              subscriptions and hosts the customer portal. The provider also acts as an independent controller for some data, for example to
              prevent fraud and meet its own legal obligations.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">E-mail delivery provider</strong>: sends account and service e-mails such as
              confirmations and password resets.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">AI model provider</strong>: generates text and images when that feature is
              configured, as described in “AI processing”.
            </li>
          </LegalList>
          <p>
            If you choose to sign in with a third-party identity provider, that provider’s own privacy policy governs the data it holds
            about you. We may also disclose data if the law requires it, to protect the rights, safety or property of users or others, or to
            a successor if the service is transferred, in which case this policy will continue to apply to your data.
          </p>
        </LegalSection>

        <LegalSection title="6. How long we keep data">
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Account data and content</strong>: kept for as long as your account exists.
              When you delete your account, your profile, personas, chats and generated images are deleted.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Backups</strong>: deleted data may remain in backups for a short period until
              those backups are overwritten in the normal cycle; it is not used for anything else in the meantime.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Billing records</strong>: invoices and transaction records are kept for as
              long as tax and accounting laws require, even after the account is deleted.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Server logs</strong>: kept only for a limited period for security and
              troubleshooting, then deleted, unless needed for longer to investigate a specific incident.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">E-mails you send us</strong>: kept as long as needed to handle your request
              and any follow-up.
            </li>
          </LegalList>
        </LegalSection>

        <LegalSection title="7. Your rights">
          <p>Depending on where you live, you have some or all of the following rights:</p>
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Access</strong>: ask for a copy of the personal data we hold about you.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Correction</strong>: update your name and content directly in the app, or ask
              us to correct anything else that is inaccurate.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Portability</strong>: download your personas at any time with the export
              feature (Text, JSON, Markdown or YAML), or ask us for your data in a machine-readable format.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Deletion</strong>: delete individual personas at any time, or delete your
              whole account from your account settings. You can also ask us to delete it for you.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Objection and restriction</strong>: object to processing based on our
              legitimate interests, or ask us to limit how we use your data while a concern is resolved.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Withdrawing consent</strong>: where we rely on consent, you can withdraw it
              at any time without affecting earlier processing.
            </li>
          </LegalList>
          <p>
            To exercise a right, e-mail <ContactEmail subject="Privacy request" /> from the address linked to your account. We may ask you
            to confirm your identity before acting on a request. We will not treat you differently for exercising your rights. You also have
            the right to lodge a complaint with the data protection authority where you live or work, although we would appreciate the
            chance to resolve your concern first.
          </p>
        </LegalSection>

        <LegalSection title="8. Cookies">
          <p>We use only cookies that are strictly necessary for the service to work:</p>
          <LegalList>
            <li>
              <strong className="font-semibold text-slate-900">Session cookie</strong>: keeps you signed in as you move between pages, and
              is cleared when you sign out or when the session expires.
            </li>
            <li>
              <strong className="font-semibold text-slate-900">Notification cookie</strong>: carries a one-time message (such as a
              confirmation that something was saved) to the next page you see, and is removed as soon as the message has been shown.
            </li>
          </LegalList>
          <p>
            We do not use advertising cookies, analytics or tracking cookies, or third-party tracking technologies. Because these cookies
            are strictly necessary, they do not require consent; if you block them in your browser, you will not be able to sign in. The
            card payment provider may set its own cookies on its checkout and customer portal pages to process payments securely and prevent
            fraud.
          </p>
        </LegalSection>

        <LegalSection title="9. Children">
          <p>
            {PRODUCT_NAME} is not intended for anyone under 16 years of age, and we do not knowingly collect personal data from children
            under 16. If you believe a child has given us personal data, please contact us at <ContactEmail /> and we will delete it.
          </p>
        </LegalSection>

        <LegalSection title="10. Security">
          <p>
            We take reasonable technical and organisational measures to protect your data, including encrypted connections (HTTPS), hashed
            passwords, signed and HTTP-only cookies, access controls that keep each account’s content private to its owner, and limited
            administrative access. No online service can be completely secure, so we cannot guarantee absolute security. If a data breach is
            likely to put your rights at risk, we will notify you and the competent authorities as the law requires.
          </p>
          <p>You can help by choosing a strong, unique password and keeping it secret.</p>
        </LegalSection>

        <LegalSection title="11. International transfers">
          <p>
            Our service providers may store or process data in countries other than your own, including countries whose data protection laws
            differ from those where you live. When personal data is transferred across borders, we rely on appropriate safeguards, such as
            adequacy decisions or standard contractual clauses approved by the relevant authorities, and we choose providers that commit to
            protecting data to the standard described in this policy.
          </p>
        </LegalSection>

        <LegalSection title="12. Changes to this policy">
          <p>
            We may update this policy as the service develops, especially during the beta. The “Last updated” date at the top shows when it
            last changed. If we make a material change, we will tell you in advance by e-mail or by a notice in the app before it takes
            effect.
          </p>
        </LegalSection>

        <LegalSection title="13. Contact">
          <p>
            Questions, requests or complaints about privacy: <ContactEmail subject="Privacy" />. See also our{" "}
            <Link to="/terms-of-service" className={legalLinkClass}>
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/commerce-disclosure" className={legalLinkClass}>
              Commerce Disclosure
            </Link>
            .
          </p>
        </LegalSection>
      </LegalPage>
    </PublicLayout>
  );
}
