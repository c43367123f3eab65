import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { ApiError } from './api';

/**
 * A value loaded before the component mounted (the server's page data, lib/ssr.tsx): `{ data }`, or `{ error }` with
 * the message the page shows (and `status: 404` when what it names does not exist: the hook then holds the same
 * ApiError a 404 from the API gives).
 */
export type Loaded<T> = { data: T } | { error: string; status?: NotFoundStatus };
/** The one status a value's error carries: what it names does not exist (the page is the designed not-found page). */
export type NotFoundStatus = 404;

export type LoadStatus = 'loading' | 'error' | 'ready';

export interface ApiData<T> {
  status: LoadStatus;
  /** What the last load returned; undefined while loading and after an error. */
  data: T | undefined;
  /** What the last load threw (status 'error'). */
  error: unknown;
  /** Loads again; what is on screen stays until the answer arrives. */
  reload: () => Promise<void>;
  /** Back to 'loading', then loads again (the "Try again" after an error). */
  retry: () => void;
  /** A local change of the loaded data: an optimistic update, a page appended. Ignored while nothing is loaded. */
  setData: (update: (current: T) => T) => void;
  /**
   * The signal of the load that produced `data`: aborted once a newer load starts, the dependencies change or the
   * component unmounts. Follow-up requests that extend `data` (the next page) pass it on and drop their answer then.
   */
  signal: () => AbortSignal;
}

interface State<T> {
  status: LoadStatus;
  data: T | undefined;
  error: unknown;
}

const LOADING: State<never> = { status: 'loading', data: undefined, error: undefined };

/**
 * Data a component shows, loaded when it mounts and again when `deps` change. The one way the web app cancels:
 * every load gets an AbortSignal, aborted when it is superseded or the component goes; an aborted load's answer (or
 * error) is dropped, so an old response never overwrites a newer one.
 */
export function useApiData<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  /** What the server already loaded (a server-rendered page, lib/ssr.tsx): shown at once, not loaded again. */
  initial?: Loaded<T>,
): ApiData<T> {
  const [state, setState] = useState<State<T>>(() =>
    !initial
      ? LOADING
      : 'data' in initial
        ? { status: 'ready', data: initial.data, error: undefined }
        : { status: 'error', data: undefined, error: loadedError(initial) },
  );
  const skipFirstLoad = useRef(initial !== undefined);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const current = useRef<AbortController | null>(null);

  const run = useCallback(async (showLoading: boolean) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    if (showLoading) setState((s) => (s.status === 'loading' ? s : LOADING));
    try {
      const data = await latestLoad.current(controller.signal);
      if (!controller.signal.aborted) setState({ status: 'ready', data, error: undefined });
    } catch (error) {
      if (!controller.signal.aborted) setState({ status: 'error', data: undefined, error });
    }
  }, []);

  useEffect(() => {
    if (skipFirstLoad.current) {
      skipFirstLoad.current = false;
      return () => current.current?.abort();
    }
    void run(true);
    return () => current.current?.abort();
    // The caller's `deps` decide when to load again, as with useEffect.
  }, deps);

  const reload = useCallback(() => run(false), [run]);
  const retry = useCallback(() => void run(true), [run]);
  const setData = useCallback((update: (current: T) => T) => {
    setState((s) => (s.status === 'ready' ? { ...s, data: update(s.data as T) } : s));
  }, []);
  // Called to extend the data on screen: that of the last load, or of the server (then no load ran yet).
  const signal = useCallback(() => (current.current ??= new AbortController()).signal, []);

  return { ...state, reload, retry, setData, signal };
}

/** The error a server-loaded value stands for: a 404 from the API, or a failure with its message. */
const loadedError = (loaded: { error: string; status?: number }) =>
  loaded.status ? new ApiError(loaded.status, loaded.error) : new Error(loaded.error);
