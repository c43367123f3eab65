import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import type { PublicProfile, PublicQuestion } from '@ques/contracts/core';
import type { Loaded } from './use-api-data';
import type { Page } from './use-paged-list';

/**
 * Data a server-rendered page was rendered with (docs/adr/0024): the BFF loads it, renders the page with it, and
 * embeds it in the HTML as a non-executable `<script type="application/json" id="ques-page-data">`; the browser
 * hydrates from the same object, so its first render is the server's (no second fetch, no flash). Each value is a
 * `Loaded` (use-api-data.ts): the answer a hook would have loaded itself.
 */
// Loaded is declared by the hook that consumes it, so the data hooks never import this module (no import circle).
export type { Loaded, NotFoundStatus } from './use-api-data';

export interface PageData {
  /** The path (without query) the data belongs to: another page never reads it. */
  path: string;
  /**
   * `profile:{username}` → PublicProfile, `questions:{username}` → first Page<PublicQuestion>, `answer:{id}`,
   * `asking:{username}` → AskingStatus, `status:{token}` → QuestionStatusPage.
   */
  values: Record<string, Loaded<unknown>>;
}

export const PAGE_DATA_ID = 'ques-page-data';

export type ProfileData = PublicProfile;
export type QuestionsData = Page<PublicQuestion>;
export interface AnswerData {
  question: PublicQuestion;
  profile: PublicProfile;
}

export const pageDataKeys = {
  profile: (username: string) => `profile:${username.toLowerCase()}`,
  questions: (username: string) => `questions:${username.toLowerCase()}`,
  answer: (id: string) => `answer:${id.toLowerCase()}`,
  /** `GET /api/asking/status/{username}` (issue 16: paused, or at the owner's cap). */
  asking: (username: string) => `asking:${username.toLowerCase()}`,
  /** `GET /api/trust-stats/{username}` (issue 15: the owner's public trust stats). */
  trust: (username: string) => `trust:${username.toLowerCase()}`,
  /** `GET /api/question-status/{token}` (the asker's status page, ADR 0058): tokens are case-sensitive. */
  status: (token: string) => `status:${token}`,
  /** The viewer's zone the BFF rendered a status page in (its `ques_tz` cookie, lib/time-zone.ts). */
  zone: () => 'zone',
};

/** The values of the page data when they belong to the current page, else null. */
const PageDataContext = createContext<PageData['values'] | null>(null);

/** Provides the page's data while the visitor is on that page; `holder.current` is forgotten once they leave it. */
export function PageDataProvider({ holder, children }: { holder: { current: PageData | null }; children: ReactNode }) {
  const { pathname } = useLocation();
  const data = holder.current;
  const values = data && normalise(data.path) === normalise(pathname) ? data.values : null;
  // Once the visitor navigated elsewhere, coming back loads fresh data.
  useEffect(() => {
    if (holder.current && normalise(holder.current.path) !== normalise(pathname)) holder.current = null;
  }, [holder, pathname]);
  return <PageDataContext.Provider value={values}>{children}</PageDataContext.Provider>;
}

/** What the server loaded for `key` on this page, if this render is the server's or the hydration of it. */
export function usePageData<T>(key: string): Loaded<T> | undefined {
  return useContext(PageDataContext)?.[key] as Loaded<T> | undefined;
}

const normalise = (path: string) => {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* as it is */
  }
  return decoded.replace(/\/+$/, '').toLowerCase() || '/';
};

/** The embedded page data of a server-rendered document, or null (a client-rendered page). */
export function readPageData(doc: Document): PageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PageData;
  } catch {
    return null;
  }
}
