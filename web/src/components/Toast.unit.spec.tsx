import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPY_MESSAGES, ToastProvider, TOAST_ACTION_MS, useCopy, useToast, type ToastOptions } from './Toast';
import { SUCCESS_BANNER_MS } from '../lib/constants';

function Trigger({ toast }: { toast: string | ToastOptions }) {
  const show = useToast();
  return (
    <button type="button" onClick={() => show(toast)}>
      Do it
    </button>
  );
}

const renderWith = (toast: string | ToastOptions) =>
  render(
    <ToastProvider>
      <Trigger toast={toast} />
    </ToastProvider>,
  );
/** Lets the fake clock run `ms` (the toasts' timers fire inside act). */
const tick = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });
const region = () => screen.getByRole('region', { name: 'Notifications' });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Toast (issue 28)', () => {
  it('announces in a polite live region that is there before the toast, then dismisses itself', () => {
    renderWith('Settings saved.');
    const live = within(region()).getByRole('status');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toBeEmptyDOMElement();
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    expect(within(live).getByText('Settings saved.')).toBeInTheDocument();
    tick(SUCCESS_BANNER_MS - 100);
    expect(screen.getByText('Settings saved.')).toBeInTheDocument();
    tick(200);
    expect(screen.queryByText('Settings saved.')).toBeNull();
  });

  it('stays while hovered or focused and goes after the full time once left', () => {
    renderWith('Link copied');
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    const toast = screen.getByText('Link copied').parentElement!;
    fireEvent.mouseEnter(toast);
    tick(SUCCESS_BANNER_MS * 3);
    expect(screen.getByText('Link copied')).toBeInTheDocument();
    fireEvent.mouseLeave(toast);
    fireEvent.focus(within(toast).getByRole('button', { name: 'Dismiss notification' }));
    tick(SUCCESS_BANNER_MS * 3);
    expect(screen.getByText('Link copied')).toBeInTheDocument();
    fireEvent.blur(within(toast).getByRole('button', { name: 'Dismiss notification' }));
    tick(SUCCESS_BANNER_MS + 10);
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('runs its action (Undo) once and goes; an action toast stays longer; several stack', () => {
    const onAction = vi.fn();
    renderWith({ message: 'Answer hidden from your profile.', action: { label: 'Undo', onAction } });
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    expect(screen.getAllByText('Answer hidden from your profile.')).toHaveLength(2);
    tick(SUCCESS_BANNER_MS + 100);
    expect(screen.getAllByRole('button', { name: 'Undo' })).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: 'Undo' })[0]!);
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(screen.getAllByText('Answer hidden from your profile.')).toHaveLength(1);
    tick(TOAST_ACTION_MS);
    expect(screen.queryByText('Answer hidden from your profile.')).toBeNull();
  });

  it('closes on Dismiss', () => {
    renderWith('Answer posted.');
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Answer posted.')).toBeNull();
  });

  it('useCopy: copies and says "Link copied"; a refused clipboard says so', async () => {
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    function Copy() {
      const copy = useCopy();
      return (
        <button type="button" onClick={() => void copy('https://ques.example/ask/ada')}>
          Copy link
        </button>
      );
    }
    render(
      <ToastProvider>
        <Copy />
      </ToastProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('https://ques.example/ask/ada');
    expect(within(region()).getByText(COPY_MESSAGES.copied)).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
      await Promise.resolve();
    });
    expect(within(region()).getByText(COPY_MESSAGES.failed)).toBeInTheDocument();
  });
});
