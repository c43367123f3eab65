import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmbedSection } from './EmbedSection';

const ada = { username: 'ada', name: 'Ada Lovelace', archiveProfile: false, brandColorMain: '#0B5FFF', brandColorLight: '#EEF3FF' };
const frame = () => screen.getByTitle('Preview of your ask button card');

describe('Account Settings: the ask button card preview', () => {
  it('loads the card again, past any cache, as soon as the saved name or colours change (issue 28)', () => {
    const { rerender } = render(<EmbedSection user={ada} />);
    const first = frame().getAttribute('src')!;
    expect(first).toMatch(/^\/embed\/ada\?v=\w+$/);
    // Rendered again with the same user: the same address, no reload.
    rerender(<EmbedSection user={{ ...ada }} />);
    expect(frame().getAttribute('src')).toBe(first);

    // The save answered with new colours: a new address, so the frame shows them at once.
    rerender(<EmbedSection user={{ ...ada, brandColorMain: '#7A1FA2' }} />);
    const recoloured = frame().getAttribute('src')!;
    expect(recoloured).not.toBe(first);
    rerender(<EmbedSection user={{ ...ada, brandColorMain: '#7A1FA2', brandColorLight: '#F6EEFA' }} />);
    expect(frame().getAttribute('src')).not.toBe(recoloured);
    rerender(<EmbedSection user={{ ...ada, name: 'Ada King' }} />);
    expect(frame().getAttribute('src')).not.toBe(first);
    expect(frame().getAttribute('src')).toMatch(/^\/embed\/ada\?v=/);
  });
});
