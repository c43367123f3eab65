import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useApiData } from './use-api-data';
import { usePagedList, type Page } from './use-paged-list';

/** A promise the test settles when it wants, remembering the signal it was started with. */
function controllable<T>() {
  const calls: { signal: AbortSignal; resolve: (value: T) => void; reject: (err: unknown) => void }[] = [];
  const load = (signal: AbortSignal) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ signal, resolve, reject });
    });
  return { calls, load };
}

describe('useApiData', () => {
  it('is loading, then ready with the data', async () => {
    const { calls, load } = controllable<string>();
    const { result } = renderHook(() => useApiData(load, []));
    expect(result.current.status).toBe('loading');
    act(() => calls[0]!.resolve('hello'));
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'hello' }));
  });

  it('reports a failure, and retry goes back to loading', async () => {
    const { calls, load } = controllable<string>();
    const { result } = renderHook(() => useApiData(load, []));
    act(() => calls[0]!.reject(new Error('boom')));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect((result.current.error as Error).message).toBe('boom');
    act(() => result.current.retry());
    expect(result.current.status).toBe('loading');
    act(() => calls[1]!.resolve('again'));
    await waitFor(() => expect(result.current.data).toBe('again'));
  });

  it('drops the answer of a load the dependencies left behind, and aborts it', async () => {
    const { calls, load } = controllable<string>();
    const { result, rerender } = renderHook(({ id }) => useApiData((signal) => load(signal).then((v) => `${id}:${v}`), [id]), {
      initialProps: { id: 'a' },
    });
    rerender({ id: 'b' });
    expect(calls[0]!.signal.aborted).toBe(true);
    act(() => calls[1]!.resolve('new'));
    await waitFor(() => expect(result.current.data).toBe('b:new'));
    // The older, slower answer arrives last and is ignored.
    act(() => calls[0]!.resolve('old'));
    await new Promise((r) => setTimeout(r, 10));
    expect(result.current.data).toBe('b:new');
  });

  it('aborts when the component goes', () => {
    const { calls, load } = controllable<string>();
    const { unmount } = renderHook(() => useApiData(load, []));
    unmount();
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('keeps the data on screen during a reload, and allows local changes', async () => {
    const { calls, load } = controllable<number[]>();
    function List() {
      const list = useApiData(load, []);
      return (
        <>
          <output>{list.status === 'ready' ? list.data!.join(',') : list.status}</output>
          <button onClick={() => list.setData((items) => [...items, 9])}>add</button>
          <button onClick={() => void list.reload()}>reload</button>
        </>
      );
    }
    render(<List />);
    act(() => calls[0]!.resolve([1, 2]));
    expect(await screen.findByText('1,2')).toBeInTheDocument();
    act(() => screen.getByText('add').click());
    expect(screen.getByRole('status')).toHaveTextContent('1,2,9');
    act(() => screen.getByText('reload').click());
    expect(screen.getByRole('status')).toHaveTextContent('1,2,9');
    act(() => calls[1]!.resolve([3]));
    expect(await screen.findByText('3')).toBeInTheDocument();
  });
});

describe('usePagedList', () => {
  const page = (items: string[], nextCursor: string | null): Page<string> => ({ items, nextCursor });

  it('appends the next page, skipping rows it already has', async () => {
    const loads: (string | null)[] = [];
    const { result } = renderHook(() =>
      usePagedList(
        async (cursor) => {
          loads.push(cursor);
          return cursor === null ? page(['a', 'b'], 'c1') : page(['b', 'c'], null);
        },
        (s) => s,
        [],
      ),
    );
    await waitFor(() => expect(result.current.items).toEqual(['a', 'b']));
    expect(result.current.hasMore).toBe(true);
    await act(() => result.current.loadMore());
    expect(result.current.items).toEqual(['a', 'b', 'c']);
    expect(result.current.hasMore).toBe(false);
    expect(loads).toEqual([null, 'c1']);
  });

  it('drops a "load more" that a reload overtook', async () => {
    const pending: ((p: Page<string>) => void)[] = [];
    let first = 0;
    const { result } = renderHook(() =>
      usePagedList(
        (cursor) =>
          cursor === null
            ? Promise.resolve(page([`first-${++first}`], 'next'))
            : new Promise<Page<string>>((resolve) => pending.push(resolve)),
        (s) => s,
        [],
      ),
    );
    await waitFor(() => expect(result.current.items).toEqual(['first-1']));
    let more!: Promise<void>;
    act(() => {
      more = result.current.loadMore();
    });
    expect(result.current.loadingMore).toBe(true);
    await act(() => result.current.reload());
    act(() => pending[0]!(page(['stale'], null)));
    await act(() => more);
    expect(result.current.items).toEqual(['first-2']);
    expect(result.current.loadingMore).toBe(false);
  });
});
