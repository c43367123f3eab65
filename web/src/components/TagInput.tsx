import { useId, useState, type KeyboardEvent } from 'react';

/**
 * Tag rule of spec §5: trimmed, lowercased; empty and duplicate tags are ignored.
 * Returns the same array when nothing was added.
 */
export function addTag(tags: readonly string[], raw: string): readonly string[] {
  const tag = raw.trim().toLowerCase();
  if (!tag || tags.includes(tag)) return tags;
  return [...tags, tag];
}

interface TagInputProps {
  tags: readonly string[];
  onChange: (tags: string[]) => void;
  label?: string;
  placeholder?: string;
}

/** Text field that turns what was typed into a tag on Enter or space; each tag can be removed. */
export function TagInput({ tags, onChange, label = 'Tags', placeholder = 'Type a tag, then Enter' }: TagInputProps) {
  const [draft, setDraft] = useState('');
  const id = useId();
  const hintId = `${id}-hint`;

  const commit = () => {
    // A pasted "a b" is two tags, as if space had been pressed between them.
    const next = draft.split(/\s+/).reduce<readonly string[]>(addTag, tags);
    if (next !== tags) onChange([...next]);
    setDraft('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault(); // no form submit, no space in the draft
      commit();
    }
  };

  return (
    <div className="tag-input">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {tags.length > 0 ? (
        <ul className="chip-list" aria-label={`${label} added`}>
          {tags.map((tag) => (
            <li key={tag} className="chip">
              <span>{tag}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={id}
        className="input"
        type="text"
        value={draft}
        placeholder={placeholder}
        aria-describedby={hintId}
        autoComplete="off"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="field__hint">
        Press Enter or space to add a tag.
      </p>
    </div>
  );
}
