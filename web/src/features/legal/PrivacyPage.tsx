import { Link } from 'react-router-dom';
import { LegalPage } from './LegalPage';

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      path="/privacy-policy"
      description="What Ques collects, why, and the choices you have."
    >
      <p>
        This policy explains what personal information Ques collects when you ask, answer or tip, how we use it,
        and your choices. It applies together with our <Link to="/terms-of-use">Terms of Use</Link>.
      </p>

      <h2>1. Minimum age</h2>
      <p>
        Ques is not meant for children under 13, and we do not knowingly collect personal information from anyone
        under 13. If you believe a child under 13 has given us information, contact us and we will delete it.
      </p>

      <h2>2. What we collect</h2>
      <ul>
        <li>
          <strong>Account information:</strong> name, username, email address, password (stored only as a secure
          hash), bio, profile photo and brand colours.
        </li>
        <li>
          <strong>Questions and answers:</strong> what you write, the tags and sources attached, timestamps, and
          whether an answer is shown on the public page.
        </li>
        <li>
          <strong>Guest askers:</strong> the name and email you enter so the owner can identify the question and we
          can tell you about the answer.
        </li>
        <li>
          <strong>Payments:</strong> tip amounts and the status of each payment hold. Card details are collected
          and stored by our card payment provider, not by Ques. Owners’ payout accounts are held with the same
          provider.
        </li>
        <li>
          <strong>Support requests:</strong> the category, title and description you send us.
        </li>
        <li>
          <strong>Technical data:</strong> IP address, device and browser type, and logs needed to keep the service
          secure and working.
        </li>
      </ul>

      <h2>3. How we use it</h2>
      <ul>
        <li>To run the service: deliver questions, publish the answers owners choose, and manage your account.</li>
        <li>
          To handle tips: place a hold when you ask, capture it only after an answer, release it if there is no
          answer within 5 days or you cancel before an answer, and pay owners their share after our 10% commission.
        </li>
        <li>To send service emails, such as a new question, an answer, or a password reset.</li>
        <li>To prevent abuse and fraud, and to meet legal obligations.</li>
      </ul>
      <p>We do not sell your personal information and we do not show third-party advertising.</p>

      <h2>4. What is public</h2>
      <p>
        An owner’s public page shows their name, username, bio, photo and the answers they choose to publish, with
        the questions. An asker’s email address is never shown publicly.
      </p>

      <h2>5. Who we share it with</h2>
      <p>
        Our payment provider (to process tips and payouts), hosting and email providers acting on our instructions,
        and authorities when the law requires it. Each receives only what it needs.
      </p>

      <h2>6. Storage on your device</h2>
      <p>
        When you log in, the app stores your session tokens and basic profile data in your browser’s local storage
        so you stay signed in. Logging out removes them from the app. We do not use advertising cookies.
      </p>
      <p>
        When you ask a question or start a tip, the app also stores a random identifier for this browser and sends
        it with the question. It says nothing about you; we keep it only hashed, separately for each owner, so that
        an owner’s block of an asker also covers their browser (see “How moderation works on Ques” in the{' '}
        <Link to="/terms-of-use">Terms of Use</Link>). Clearing your browser’s site data removes it.
      </p>

      <h2>7. How long we keep it</h2>
      <p>
        Account data is kept while your account exists. When you delete your account we delete or anonymise your
        personal information, except records we must keep for tax, accounting or fraud-prevention reasons.
      </p>

      <h2>8. Your rights</h2>
      <p>
        You can see and correct most of your information in Account Settings and delete your account there at any
        time. Depending on where you live you may also have the right to request a copy of your data, object to
        certain uses, or complain to a data-protection authority. Contact us through Support to exercise them.
      </p>

      <h2>9. Changes</h2>
      <p>
        We will post any update here with a new effective date and tell you in advance about material changes.
      </p>
    </LegalPage>
  );
}
