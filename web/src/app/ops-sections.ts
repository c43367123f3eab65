import type { ComponentType } from 'react';

/**
 * The operator console's sections (issue 18): one entry per screen, in navigation order. A section is a feature's
 * default-exported page, loaded when first opened (each its own chunk, inside the console's lazily loaded bundle).
 * Its route is `/ops/<path>/*`, so a section may hold its own sub-routes (`<Routes>` relative to it). Add a section
 * here — nothing else registers navigation.
 */
export interface OpsSection {
  /** Under /ops: '' is the console's landing page. */
  path: string;
  /** Navigation label (also the page's accessible name). */
  label: string;
  /** Navigation group heading. */
  group: 'Overview' | 'Profiles' | 'Platform';
  load: () => Promise<{ default: ComponentType }>;
}

export const OPS_SECTIONS: readonly OpsSection[] = [
  { path: '', label: 'Audit log', group: 'Overview', load: () => import('../features/ops/audit/AuditPage') },
  { path: 'archives', label: 'Archive profiles', group: 'Profiles', load: () => import('../features/ops/archives/ArchivesPage') },
  { path: 'claims', label: 'Profile claims', group: 'Profiles', load: () => import('../features/ops/claims/ClaimsPage') },
  { path: 'streams', label: 'Event streams', group: 'Platform', load: () => import('../features/ops/desk/StreamsPage') },
  { path: 'support', label: 'Support requests', group: 'Platform', load: () => import('../features/ops/desk/SupportRequestsPage') },
  { path: 'reports', label: 'Abuse reports', group: 'Platform', load: () => import('../features/ops/desk/ReportsPage') },
];

/** Group headings in the order the navigation shows them. */
export const OPS_GROUPS: readonly OpsSection['group'][] = ['Overview', 'Profiles', 'Platform'];
