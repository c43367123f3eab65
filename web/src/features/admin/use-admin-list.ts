import { formatDollars, type Question, type User } from '@ques/contracts/core';
import { useCallback, useMemo, useState } from 'react';
import { useSuccessMessage } from '../../components/Banner';
import { useToast } from '../../components/Toast';
import { errorText } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { cancelPayment, setDisplayOnProfile, type ListRole } from './api';
import { isPending, listFor, matchesSearch, matchesStatus, needsCancelPayment, questionId, type StatusFilter } from './lists';
import { useNarrowScreen, useNow, useQuestionList, type QuestionList } from './use-question-list';

const CANCEL_FAILED = 'Failed to cancel the payment.';
const NOT_DELETED = 'The question was not deleted.';

export interface RemoveOptions {
  /** The call that removes it: the recipient's delete, or the asker's withdrawal. */
  request: (id: string) => Promise<unknown>;
  /** Shown when that call fails (the list is reloaded). */
  failed: string;
  /** The success message, given the released tip's amount ("$5") when the question had one. */
  succeeded?: (releasedTip: string | null) => string;
}

export interface AdminList {
  user: User | null;
  list: QuestionList;
  /** The caller's questions of this list (spec §5 "Lists"), newest first. */
  all: Question[];
  /** `all` after the search (and, on narrow screens, the pending-only filter). */
  shown: Question[];
  narrow: boolean;
  search: string;
  setSearch: (search: string) => void;
  pendingOnly: boolean;
  togglePendingOnly: () => void;
  /** Wide screens: the status filter over the table (issue 28; narrow screens have the pending toggle). */
  status: StatusFilter;
  setStatus: (status: StatusFilter) => void;
  error: string;
  setError: (error: string) => void;
  success: string;
  showSuccess: (message: string) => void;
  /** Rows with a request in flight (their actions are disabled). */
  busy: ReadonlySet<string>;
  find: (id: string) => Question | undefined;
  /**
   * Spec §4: hide/show applied at once, the list reloaded when the server refuses; once done, a toast says so with
   * Undo, which issues the reverse command (issue 28).
   */
  toggleDisplay: (q: Question, failed: string) => Promise<void>;
  /**
   * Spec §4: a pending tipped question has its payment cancelled first (a failed cancel keeps the question); then it
   * is removed at once, and the list reloaded when the server refuses.
   */
  remove: (q: Question, options: RemoveOptions) => Promise<void>;
}

/** What hiding or showing an answer says (issue 28), in a toast with Undo. */
export const DISPLAY_MESSAGES = {
  hidden: 'Answer hidden from your profile.',
  shown: 'Answer shown on your profile.',
} as const;

export interface AdminListOptions {
  /** After an action changed what the owner's figures count (hide/show, delete): the page refreshes its stats. */
  onChanged?: () => void;
}

/** State and actions the three admin lists share; each page adds its columns, cards and modals. */
export function useAdminList(role: ListRole, { onChanged }: AdminListOptions = {}): AdminList {
  const { user } = useAuth();
  const toast = useToast();
  const list = useQuestionList(role);
  const narrow = useNarrowScreen();
  const [search, setSearch] = useState('');
  const [pendingOnly, setPendingOnly] = useState(false);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [error, setError] = useState('');
  const [success, showSuccess] = useSuccessMessage();
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());

  const username = user?.username ?? '';
  const email = user?.email ?? '';
  const all = useMemo(() => listFor(role, list.items, { username, email }), [role, list.items, username, email]);
  const shown = all.filter(
    (q) => matchesSearch(role, q, search) && (narrow ? !pendingOnly || isPending(q) : matchesStatus(q, status)),
  );

  const markBusy = useCallback(
    (id: string, on: boolean) =>
      setBusy((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );

  const toggleDisplay = async (q: Question, failed: string, undoable = true) => {
    const id = questionId(q);
    const next = q.displayOnProfile === false;
    setError('');
    list.update(id, { displayOnProfile: next });
    try {
      await setDisplayOnProfile(id, next);
    } catch (err) {
      console.warn('Changing the display setting failed', err);
      setError(failed);
      await list.reload();
      return;
    }
    onChanged?.();
    toast({
      message: next ? DISPLAY_MESSAGES.shown : DISPLAY_MESSAGES.hidden,
      // Undo is the reverse command, from the state just reached; undoing an undo is not offered.
      ...(undoable
        ? { action: { label: 'Undo', onAction: () => void toggleDisplay({ ...q, displayOnProfile: next }, failed, false) } }
        : {}),
    });
  };

  const remove = async (q: Question, { request, failed, succeeded }: RemoveOptions) => {
    const id = questionId(q);
    setError('');
    showSuccess('');
    const tipped = needsCancelPayment(q);
    if (tipped) {
      markBusy(id, true);
      try {
        await cancelPayment(id);
      } catch (err) {
        setError(`${errorText(err, CANCEL_FAILED, CANCEL_FAILED)} ${NOT_DELETED}`);
        return;
      } finally {
        markBusy(id, false);
      }
    }
    list.remove(id);
    try {
      await request(id);
      onChanged?.();
      if (succeeded) showSuccess(succeeded(tipped ? formatDollars(q.tip ?? 0) : null));
    } catch (err) {
      console.warn('Removing the question failed', err);
      setError(failed);
      await list.reload();
    }
  };

  return {
    user,
    list,
    all,
    shown,
    narrow,
    search,
    setSearch,
    pendingOnly,
    togglePendingOnly: () => setPendingOnly((p) => !p),
    status,
    setStatus,
    error,
    setError,
    success,
    showSuccess,
    busy,
    find: (id) => all.find((q) => questionId(q) === id),
    toggleDisplay,
    remove,
  };
}

/** A list whose questions can hold a tip (received, asked): the admin list and the clock its tip countdowns read. */
export interface PendingList extends AdminList {
  /** The current time, ticking every minute (time left before a held tip is released). */
  now: number;
}

export function usePendingList(role: 'receiver' | 'asker', options?: AdminListOptions): PendingList {
  const page = useAdminList(role, options);
  const now = useNow();
  return { ...page, now };
}
