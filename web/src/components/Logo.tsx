/** Wordmark: a speech-bubble "Q" and the name. Inherits `currentColor`. */
export function Logo() {
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <path
          d="M16 3C8.8 3 3 8.4 3 15.1c0 6.7 5.8 12.1 13 12.1 1.6 0 3.2-.3 4.6-.8l5.9 2.6-1.5-5.3c2.5-2.2 4-5.2 4-8.6C29 8.4 23.2 3 16 3z"
          fill="currentColor"
        />
        <circle cx="16" cy="15" r="5.4" fill="none" stroke="var(--logo-knockout, #FAF6F2)" strokeWidth="2.6" />
        <path d="M18.6 17.8l3 3" stroke="var(--logo-knockout, #FAF6F2)" strokeWidth="2.6" strokeLinecap="round" />
      </svg>
      <span className="logo__word">Ques</span>
    </span>
  );
}
