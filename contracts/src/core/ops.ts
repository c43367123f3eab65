/*
 * The operator console (issue 18, ADR 0031), zod-free: the claim an operator's access token carries, the console's
 * sentences and the TypeScript shapes of its calls (schemas in ../ops.ts).
 */

/** The access-token claim of a platform operator (`op: true`), signed by identity only. */
export const OPERATOR_CLAIM = 'op';

/** Where the console lives; the BFF answers 404 for these pages unless the session is an operator's. */
export const OPS_BASE_PATH = '/ops';

/** Cookie the BFF sets for an operator's session so that `/ops` page requests can be checked server-side. */
export const OPS_SESSION_COOKIE = 'ques_ops';

export const OPS_MESSAGES = {
  notFound: 'Not found',
  noSuchArchive: 'There is no archive profile with this id.',
  usernameTaken: 'This username is taken.',
  /** Curated Q&A from the console is for archive profiles only: an owned profile curates its own. */
  notAnArchive: 'This profile is not an archive profile: its owner curates their own Q&A.',
  noSuchCurated: 'There is no curated answer of an archive profile with this id.',
  /** The curate form's required source on an archive (spec style: "Question title is required."). */
  sourceRequired: 'Source is required: a link, programme, timestamp or page.',
  /** Four eyes (issue 33, ADR 0054): a real person's account is never turned into a claimable archive. */
  realAccount:
    'Only a profile created as an archive, that nobody has signed in to and that was never claimed, can be marked as an archive.',
} as const;

/** The longest "sources" note of an archive profile. */
export const ARCHIVE_SOURCES_MAX = 2000;

/** An archive profile as the console shows it. */
export interface ArchiveProfile {
  id: string;
  username: string;
  name: string;
  bio: string;
  avatarUrl: string;
  archiveProfile: boolean;
  sources: string;
}

/** One operator action, as the console's audit list shows it. */
export interface OperatorAuditEntry {
  id: string;
  service: 'identity' | 'questions' | 'payments' | 'support';
  operatorId: string;
  operatorUsername: string;
  /** What was done, e.g. `archive.create`, `claim.approve`, `operator.grant`. */
  action: string;
  /** What it was done to, e.g. `user:<id>`, `claim:<id>`. */
  subject: string;
  /** One line for people. */
  summary: string;
  at: string;
}

export interface OperatorAuditPage {
  entries: OperatorAuditEntry[];
}
