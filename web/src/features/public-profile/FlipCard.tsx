import { useEffect, useId, useRef, useState, type TouchEvent } from 'react';
import { Link } from 'react-router-dom';
import { excerpt, type PublicQuestion } from '@ques/contracts/core';
import { LocalDate } from '../../components/LocalDate';
import { SWIPE_THRESHOLD_PX } from '../../lib/constants';

interface FlipCardProps {
  question: PublicQuestion;
  /** `/ask/{username}/question/{id}/{slug}` */
  href: string;
}

/** The front's answer preview: at most this many characters (CSS then clamps it to three lines). */
const PREVIEW_CHARS = 200;

/** A click that arrives this soon after a handled swipe belongs to that swipe and is ignored. */
const GHOST_CLICK_MS = 400;

/**
 * Q&A flip card (spec §2 "Flip-card Q&A item"). The front shows the question, the start of the answer and the date
 * (issue 28); its "View Answer" button (named "View Answer {question}") covers the whole face, so a click anywhere, Enter
 * or Space flip it — the button holds only its own words, never the preview (a name as long as the card). The back
 * shows the detail, answer and source with a "Close" button. Focus follows the visible face. A horizontal
 * swipe of more than 50 px to the left opens the card, to the right closes it.
 */
export function FlipCard({ question, href }: FlipCardProps) {
  const [flipped, setFlipped] = useState(false);
  const [animate, setAnimate] = useState(false);
  const backId = useId();
  const ids = { question: useId(), cta: useId() };
  const frontRef = useRef<HTMLButtonElement>(null);
  const backRef = useRef<HTMLDivElement>(null);
  const focusTarget = useRef<'front' | 'back' | null>(null);
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const swipedAt = useRef(0);

  useEffect(() => {
    const target = focusTarget.current === 'back' ? backRef.current : focusTarget.current === 'front' ? frontRef.current : null;
    focusTarget.current = null;
    target?.focus({ preventScroll: true });
  }, [flipped]);

  const flip = (next: boolean, moveFocus: boolean) => {
    if (next === flipped) return;
    focusTarget.current = moveFocus ? (next ? 'back' : 'front') : null;
    setAnimate(true);
    setFlipped(next);
  };

  const onTouchStart = (e: TouchEvent) => {
    const t = e.touches[0];
    touchStart.current = t ? { x: t.clientX, y: t.clientY } : null;
  };

  const onTouchEnd = (e: TouchEvent) => {
    const start = touchStart.current;
    const t = e.changedTouches[0];
    touchStart.current = null;
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    // Mostly-vertical movement is scrolling, not a swipe.
    if (Math.abs(dx) <= SWIPE_THRESHOLD_PX || Math.abs(dx) <= Math.abs(dy)) return;
    swipedAt.current = Date.now();
    flip(dx < 0, false);
  };

  const fromSwipe = () => Date.now() - swipedAt.current < GHOST_CLICK_MS;

  return (
    <article
      className={`qa-card${flipped ? ' is-flipped' : ''}${animate ? ' is-animated' : ''}`}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
      data-testid="flip-card"
    >
      <div className="qa-card__face qa-card__front" hidden={flipped}>
        <h3 className="qa-card__question" id={ids.question}>
          {question.question}
        </h3>
        <p className="qa-card__preview">{excerpt(question.answer, PREVIEW_CHARS)}</p>
        <div className="qa-card__foot">
          <LocalDate iso={question.answeredAt ?? question.createdAt} className="qa-card__date" />
          <button
            ref={frontRef}
            type="button"
            className="qa-card__cta"
            id={ids.cta}
            aria-controls={backId}
            aria-labelledby={`${ids.cta} ${ids.question}`}
            onClick={() => {
              if (!fromSwipe()) flip(true, true);
            }}
          >
            View Answer
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
              <path d="M3 8h9M8.5 4.5L12 8l-3.5 3.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        </div>
      </div>
      <div
        ref={backRef}
        id={backId}
        className="qa-card__face qa-card__back"
        hidden={!flipped}
        tabIndex={-1}
        role="region"
        aria-label={`Answer to: ${question.question}`}
      >
        <h3 className="qa-card__title">
          <Link to={href}>{question.question}</Link>
        </h3>
        {question.detail ? <p className="qa-card__detail">{question.detail}</p> : null}
        <div className="qa-card__answer">{question.answer}</div>
        {question.source ? <p className="qa-card__source">Source: {question.source}</p> : null}
        {question.tags && question.tags.length > 0 ? (
          <ul className="chip-list qa-card__tags" aria-label="Tags">
            {question.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        ) : null}
        <div className="qa-card__actions">
          <Link to={href} className="text-link">
            Open answer page
          </Link>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => {
              if (!fromSwipe()) flip(false, true);
            }}
          >
            Close
          </button>
        </div>
      </div>
    </article>
  );
}
