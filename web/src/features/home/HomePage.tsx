import { Link } from 'react-router-dom';
import { DEFAULT_DESCRIPTION, DEFAULT_TITLE } from '@ques/contracts/core';
import { usePageHead } from '../../lib/head';
import { useAuth } from '../../lib/auth/auth-context';
import './home.css';

const STEPS = [
  {
    title: 'Someone asks',
    text: 'Visitors open your public page, read what you have already answered, and ask what is still missing — as a guest or with an account.',
  },
  {
    title: 'They may add a tip',
    text: 'Askers can add a tip to show the question matters to them. You decide whether tipping is on and which amounts to offer.',
  },
  {
    title: 'You answer once',
    text: 'Reply from your inbox. Choose which answers appear on your public page, so the next person finds them without asking again.',
  },
] as const;

/** Landing page: what Ques is, for whom, how asking and tipping work. */
export default function HomePage() {
  usePageHead(DEFAULT_TITLE, DEFAULT_DESCRIPTION, '/');
  const { user } = useAuth();

  return (
    <div className="home">
      <section className="home-hero">
        <div className="home-hero__inner">
          <p className="eyebrow">Q&amp;A for professionals and businesses</p>
          <h1 className="home-hero__title">
            Your personal FAQ.
            <br />
            <em>Answer once.</em> Never repeat yourself again.
          </h1>
          <p className="home-hero__lead">
            Ques gives consultants, coaches, creators, clinics, studios and small businesses one public page where
            fans and customers ask you directly — and read everything you have already answered.
          </p>
          <div className="home-hero__actions">
            {user ? (
              <>
                <Link to="/admin" className="button button--primary button--large">
                  Go to my questions
                </Link>
                <Link to={`/ask/${encodeURIComponent(user.username)}`} className="button button--ghost button--large">
                  View my public page
                </Link>
              </>
            ) : (
              <>
                <Link to="/signup" className="button button--primary button--large">
                  Create your free page
                </Link>
                <Link to="/login" className="button button--ghost button--large">
                  Log in
                </Link>
              </>
            )}
          </div>
        </div>
        <figure className="home-hero__card" aria-label="Example question card">
          <p className="home-hero__card-q">“Do you work with early-stage teams, or only after a funding round?”</p>
          <p className="home-hero__card-a">
            Both. Most of my clients are two to ten people; I shape the engagement around where you are…
          </p>
          <figcaption className="home-hero__card-meta">Answered · $25 tip</figcaption>
        </figure>
      </section>

      <section className="home-section" aria-labelledby="who">
        <h2 id="who" className="home-section__title">
          Who it is for
        </h2>
        <div className="home-columns">
          <div>
            <h3>Professionals</h3>
            <p>Lawyers, doctors, advisers and coaches who get the same ten questions every week and want a calm, public place for the answers.</p>
          </div>
          <div>
            <h3>Businesses</h3>
            <p>Shops, studios and service teams that want customers to ask once and find a real person’s answer — in your colours, on your page.</p>
          </div>
          <div>
            <h3>Creators</h3>
            <p>Writers, podcasters and educators whose audience wants a direct line — with an optional tip for the questions that take real work.</p>
          </div>
        </div>
      </section>

      <section className="home-section" aria-labelledby="how">
        <h2 id="how" className="home-section__title">
          How asking works
        </h2>
        <ol className="home-steps">
          {STEPS.map((step, i) => (
            <li key={step.title} className="home-steps__item">
              <span className="home-steps__number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="home-section home-guarantee" aria-labelledby="tips">
        <h2 id="tips" className="home-section__title">
          Tips are held, never charged unless answered
        </h2>
        <div className="home-columns">
          <div>
            <h3>Held, not charged</h3>
            <p>
              When someone adds a tip, the amount is only reserved on their card. Nothing is charged at the moment
              of asking.
            </p>
          </div>
          <div>
            <h3>Charged when answered</h3>
            <p>The tip is captured only once the question receives an answer. After answering, the tip is final.</p>
          </div>
          <div>
            <h3>Released otherwise</h3>
            <p>
              If there is no answer within 5 days, or the asker withdraws the question before it is answered, the
              hold is released in full.
            </p>
          </div>
        </div>
        <p className="home-fee">
          <strong>One simple fee:</strong> Ques keeps 10&nbsp;% of each tip. There is no subscription and asking
          without a tip is always free. Payments run through our card payment provider.
        </p>
      </section>

      <section className="home-cta" aria-labelledby="cta">
        <h2 id="cta" className="home-cta__title">
          Stop answering the same question twice.
        </h2>
        <p>Set up your page in a minute: a name, a photo, your brand colours.</p>
        <Link to={user ? '/admin' : '/signup'} className="button button--on-dark button--large">
          {user ? 'Open my dashboard' : 'Sign up free'}
        </Link>
      </section>

    </div>
  );
}
