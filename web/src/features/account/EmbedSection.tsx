import { useId, useState } from 'react';
import { EMBED_PREFIX, embedSnippets, type User } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { useToast } from '../../components/Toast';
import { siteOrigin } from '../../lib/head';

export const EMBED_UI = {
  copied: (what: string) => `${what} copied to clipboard.`,
  copyFailed: 'Could not copy. Select the text and copy it yourself.',
} as const;

/**
 * Account Settings' "Ask button for your website" (issue 15): copy-paste snippets that show "Ask {name} a question"
 * in the owner's brand colours on any site and open their page — a plain link styled as a button (works everywhere,
 * loads nothing), or a small framed card served from `/embed/{username}` (the only page of Ques other sites may frame).
 * An archive profile's snippets link to its answers (archives take no questions).
 */
type EmbedUser = Pick<User, 'username' | 'name' | 'archiveProfile' | 'brandColorMain' | 'brandColorLight'>;

/**
 * The preview's address: the card's, with a version made of what the card shows. The card is served with a five-minute
 * cache (bff/src/pages/embed.ts) and a frame whose address stays the same never reloads: without the version the
 * preview kept the colours it first loaded after a save (issue 28). A new name or colour is a new address, loaded at
 * once, from the user the save answered with.
 */
export function previewSrc(user: EmbedUser): string {
  const shown = [user.name, user.archiveProfile ? 'archive' : '', user.brandColorMain ?? '', user.brandColorLight ?? ''].join('\n');
  let hash = 0;
  for (let i = 0; i < shown.length; i++) hash = (Math.imul(hash, 31) + shown.charCodeAt(i)) | 0;
  return `${EMBED_PREFIX}${encodeURIComponent(user.username)}?v=${(hash >>> 0).toString(36)}`;
}

export function EmbedSection({ user }: { user: EmbedUser }) {
  // A copy says so in a toast, as the rest of Account Settings does (issue 28); a refused clipboard stays here.
  const toast = useToast();
  const [copyError, setCopyError] = useState('');
  const headingId = useId();
  const origin = siteOrigin();
  const snippets = embedSnippets(origin, user);

  const copy = async (text: string, what: string) => {
    setCopyError('');
    try {
      await navigator.clipboard.writeText(text);
      toast(EMBED_UI.copied(what));
    } catch {
      setCopyError(EMBED_UI.copyFailed);
    }
  };

  const snippet = (label: string, text: string, hint: string) => (
    <Field label={label} hint={hint}>
      {(field) => (
        <div className="embed-snippet">
          <textarea {...field} className="input embed-snippet__code" readOnly rows={3} value={text} onFocus={(e) => e.target.select()} />
          <button type="button" className="button button--ghost button--small" onClick={() => void copy(text, label)}>
            Copy {label.toLowerCase()}
          </button>
        </div>
      )}
    </Field>
  );

  return (
    <section className="account__card" aria-labelledby={headingId}>
      <h2 className="account__heading" id={headingId}>
        Ask button for your website
      </h2>
      <p>Paste one of these into any web page. It shows your button in your brand colours and opens your Ques page.</p>
      {snippet('Button link', snippets.link, 'A plain link styled as a button: no script, nothing to load.')}
      {snippet('Card', snippets.iframe, 'A small framed card, always up to date with your name and colours.')}
      <p className="field__label">Preview</p>
      <iframe
        className="embed-preview"
        src={previewSrc(user)}
        title={`Preview of your ask button card`}
        width={320}
        height={80}
        loading="lazy"
      />
      <ErrorBanner>{copyError}</ErrorBanner>
    </section>
  );
}
