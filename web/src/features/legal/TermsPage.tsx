import { Link } from 'react-router-dom';
import { LegalPage } from './LegalPage';
import { ModerationSection } from './ModerationSection';

export default function TermsPage() {
  return (
    <LegalPage
      title="Terms of Use"
      path="/terms-of-use"
      description="The terms that apply when you ask, answer or tip on Ques."
    >
      <p>
        These Terms of Use govern your use of Ques, a question-and-answer service where professionals, businesses
        and creators (“owners”) receive questions from visitors (“askers”), may receive tips for them, and publish
        selected answers on a public page. By creating an account, asking a question or tipping, you agree to these
        terms and to our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>

      <h2>1. Who may use Ques</h2>
      <p>
        You must be at least 13 years old to use Ques. If you are under the age of majority where you live, you may
        only tip with the permission and payment method of a parent or guardian. Owners who receive tips must be
        able to enter a binding contract and complete the identity checks of our payment provider.
      </p>

      <h2>2. Accounts</h2>
      <p>
        Keep your login details to yourself and tell us promptly if you think someone else has used your account.
        You are responsible for what happens under your account. You can delete your account at any time from
        Account Settings; deletion is permanent.
      </p>

      <h2>3. Asking questions</h2>
      <ul>
        <li>You may ask as a guest (with your name and email) or while logged in.</li>
        <li>
          Owners decide whether and how to answer. A question is not a booking, contract for advice or promise of
          a reply.
        </li>
        <li>
          Answers are general information from the owner, not professional advice tailored to your situation
          unless the owner expressly says so.
        </li>
      </ul>

      <h2>4. Tips, payment holds and refunds</h2>
      <ul>
        <li>Tips are optional, in US dollars, and at least $1 when you enter a custom amount.</li>
        <li>
          When you add a tip, the amount is <strong>held on your card, not charged</strong>. The payment is only
          captured after the owner answers your question.
        </li>
        <li>
          If your question is <strong>not answered within 5 days</strong>, the hold is released and you are not
          charged.
        </li>
        <li>
          If you <strong>cancel a tipped question before it is answered</strong> (within those 5 days), the hold is
          released and you are not charged.
        </li>
        <li>
          <strong>Once a question has been answered, the tip is final and no refund is given</strong>, whatever
          the length or content of the answer.
        </li>
        <li>
          Payments are processed by our card payment provider; Ques never sees or stores your full card number.
        </li>
      </ul>

      <h2>5. Fees for owners</h2>
      <p>
        Ques keeps a <strong>10% commission</strong> on each tip (each transaction). The rest is paid out to the
        owner’s connected payout account, subject to the payment provider’s own fees, schedule and checks. Owners
        are responsible for any taxes on what they receive.
      </p>

      <h2>6. Public pages and curated archives</h2>
      <p>
        Owners choose which answers appear on their public page. Some pages are curated archives built from
        public interviews, podcasts and social posts; they are marked “Non-affiliated profile”, are not run or
        endorsed by the person they describe, and do not accept questions. If you are the subject of an archive
        and want it changed or removed, contact us through Support.
      </p>

      <h2>7. Your content</h2>
      <p>
        You keep ownership of the questions and answers you write. You give Ques a worldwide, non-exclusive,
        royalty-free licence to host, display and distribute them as needed to run the service — for example, to
        show a published answer on the owner’s page and in search results. Askers agree that a question they send
        may be published together with its answer, without their email address.
      </p>

      <h2>8. Acceptable use</h2>
      <p>
        Do not use Ques to harass anyone, to send spam, to share unlawful, hateful or sexually explicit content, to
        impersonate others, to infringe anyone’s rights, or to interfere with the service or its security. We may
        remove content or suspend accounts that break these rules.
      </p>

      <ModerationSection />

      <h2>9. Disclaimers and liability</h2>
      <p>
        Ques is provided “as is”. To the extent the law allows, we are not liable for indirect or consequential
        losses, or for the content of answers given by owners. Our total liability to you for any claim is limited
        to the amount you paid through Ques in the 12 months before the claim. Nothing in these terms limits rights
        you have under consumer law that cannot be limited.
      </p>

      <h2>10. Changes</h2>
      <p>
        We may update these terms. If a change is material we will tell you by email or in the app before it takes
        effect. Continuing to use Ques after that date means you accept the updated terms.
      </p>

      <h2>11. Contact</h2>
      <p>Questions about these terms? Reach us through the Support form in the app.</p>
    </LegalPage>
  );
}
