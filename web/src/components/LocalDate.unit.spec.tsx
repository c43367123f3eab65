import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalDate } from './LocalDate';

// Node follows a change of TZ at once; the stub is undone after the test.
afterEach(() => vi.unstubAllEnvs());

describe('LocalDate', () => {
  it('renders the UTC day on the server (and so hydrates it), then the viewer’s own day after mount', async () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    const iso = '2025-03-01T03:00:00.000Z'; // still Feb 28 in Los Angeles
    expect(renderToString(<LocalDate iso={iso} />)).toBe('<time dateTime="2025-03-01T03:00:00.000Z">Mar 1, 2025</time>');
    await act(async () => void render(<LocalDate iso={iso} id="d" />));
    const time = screen.getByText('Feb 28, 2025');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', iso);
  });
});
