import { ASKING_LIMITS } from '@ques/contracts/core';

/**
 * "How moderation works on Ques" (issue 16): exactly what is checked, when, and what is not. Shown on the legal pages;
 * keep it true to services/questions/src/asking (docs/adr/0025).
 */
export function ModerationSection() {
  return (
    <section aria-labelledby="moderation" className="legal__section">
      <h2 id="moderation">How moderation works on Ques</h2>
      <p>
        Ques checks a question <strong>before</strong> it is sent and before any card is authorised, so no tip is
        ever held for a question that will be refused. Every question, free or tipped, goes through the same
        checks:
      </p>
      <ul>
        <li>
          <strong>Pause and limit.</strong> An owner can pause their page until a date, or set a limit on open
          questions. While paused or at the limit, their page says so and new questions are refused.
        </li>
        <li>
          <strong>Word filters.</strong> An owner can list words and phrases they do not want to receive (up to{' '}
          {ASKING_LIMITS.filterEntries}), and switch on a short built-in list of common slurs and abuse. The title
          and description are compared as whole words, ignoring upper and lower case, accents, spacing,
          punctuation, repeated letters and common look-alike characters (such as 0 for o or @ for a). A word hidden
          inside a longer word is not matched.
        </li>
        <li>
          <strong>Blocks.</strong> An owner can block the asker of a question they received. A block covers the
          asker’s account, the e-mail address they used, and their browser (a random identifier stored in the
          browser, which we keep only in hashed form, per owner). The owner can see and lift their blocks at any
          time.
        </li>
        <li>
          <strong>Guest limit.</strong> A browser without an account can send each owner at most{' '}
          {ASKING_LIMITS.guestAsksPerDevicePerDay} questions a day.
        </li>
      </ul>
      <p>
        A refused question is not stored and no payment is started. A filtered or blocked asker sees the same
        neutral message (“This question can’t be sent to …”), which does not say which check applied.
      </p>
      <p>
        <strong>What we do not do:</strong> no person at Ques reads questions before they are delivered, we do not
        scan answers, images or links, and no automated system judges the meaning or tone of a question. The filters
        only catch the words an owner (or the built-in list) names, and a determined person can word around them or
        use another browser. Owners remain free to delete any question, and you can report abuse through the
        Support form; we act on reports under the Acceptable use rules above.
      </p>
    </section>
  );
}
