import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { addTag, TagInput } from './TagInput';

function Harness({ initial = [] as string[] }) {
  const [tags, setTags] = useState<string[]>(initial);
  return (
    <>
      <TagInput tags={tags} onChange={setTags} />
      <output data-testid="tags">{JSON.stringify(tags)}</output>
    </>
  );
}

const current = () => JSON.parse(screen.getByTestId('tags').textContent ?? '[]') as string[];

describe('addTag (spec §5 tag rules)', () => {
  it('trims and lowercases', () => {
    expect(addTag([], '  Pricing ')).toEqual(['pricing']);
  });

  it('ignores empty input', () => {
    const tags = ['a'];
    expect(addTag(tags, '   ')).toBe(tags);
  });

  it('ignores duplicates, case-insensitively', () => {
    const tags = ['pricing'];
    expect(addTag(tags, 'PRICING')).toBe(tags);
  });
});

describe('<TagInput>', () => {
  it('adds a trimmed, lowercased tag on Enter', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Tags'), '  Career{Enter}');
    expect(current()).toEqual(['career']);
    expect(screen.getByLabelText('Tags')).toHaveValue('');
  });

  it('adds a tag on space', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('Tags'), 'Money Time ');
    expect(current()).toEqual(['money', 'time']);
  });

  it('ignores empty tags and duplicates', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['design']} />);
    const input = screen.getByLabelText('Tags');
    await user.type(input, '{Enter}   {Enter}DESIGN{Enter} Design ');
    expect(current()).toEqual(['design']);
  });

  it('removes a tag with its remove button', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['a', 'b']} />);
    await user.click(screen.getByRole('button', { name: 'Remove tag a' }));
    expect(current()).toEqual(['b']);
  });

  it('does not submit the surrounding form on Enter', async () => {
    const user = userEvent.setup();
    let submitted = false;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitted = true;
        }}
      >
        <Harness />
      </form>,
    );
    await user.type(screen.getByLabelText('Tags'), 'x{Enter}');
    expect(submitted).toBe(false);
    expect(current()).toEqual(['x']);
  });
});
