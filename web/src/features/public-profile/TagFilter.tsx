import type { PublicQuestion } from '@ques/contracts/core';

/** Tags of the given questions, most used first, then alphabetical. */
export function collectTags(questions: readonly PublicQuestion[]): string[] {
  const counts = new Map<string, number>();
  for (const q of questions) for (const tag of q.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

interface TagFilterProps {
  tags: readonly string[];
  selected: string | null;
  onSelect: (tag: string | null) => void;
}

/** Toggle buttons: "All" plus one per tag. */
export function TagFilter({ tags, selected, onSelect }: TagFilterProps) {
  if (tags.length === 0) return null;
  return (
    <div className="tag-filter" role="group" aria-label="Filter answers by tag">
      <button
        type="button"
        className="tag-filter__chip"
        aria-pressed={selected === null}
        onClick={() => onSelect(null)}
      >
        All
      </button>
      {tags.map((tag) => (
        <button
          key={tag}
          type="button"
          className="tag-filter__chip"
          aria-pressed={selected === tag}
          onClick={() => onSelect(selected === tag ? null : tag)}
        >
          #{tag}
        </button>
      ))}
    </div>
  );
}
