import type { PublicQuestion } from '@ques/contracts/core';
import { ToggleGroup } from '../../components/ToggleGroup';

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

/** Toggle buttons: "All" plus one per tag; pressing the selected tag again shows all. */
export function TagFilter({ tags, selected, onSelect }: TagFilterProps) {
  if (tags.length === 0) return null;
  return (
    <ToggleGroup<string | null>
      label="Filter answers by tag"
      className="tag-filter"
      buttonClassName="tag-filter__chip"
      options={[{ value: null, label: 'All' }, ...tags.map((tag) => ({ value: tag, label: `#${tag}` }))]}
      pressed={selected}
      onPress={(tag) => onSelect(tag !== null && tag === selected ? null : tag)}
    />
  );
}
