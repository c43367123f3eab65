import { lazy } from 'react';
import { Link, Route, Routes } from '../lib/router';
import { usePageHead } from '../lib/head';
import { OpsLayout } from './OpsLayout';
import { OPS_SECTIONS } from './ops-sections';

// One lazy component per section, made once (each its own chunk inside the console's bundle).
const SECTIONS = OPS_SECTIONS.map((section) => ({ ...section, Page: lazy(section.load) }));

/**
 * /ops/* — the operator console (issue 18): its own lazily loaded bundle, rendered only for an operator's session
 * (App's RequireOperator; the BFF answers 404 for these pages otherwise), never part of the public or admin bundles.
 */
export default function OpsApp() {
  return (
    <Routes>
      <Route element={<OpsLayout />}>
        {SECTIONS.map(({ path, Page }) =>
          path ? <Route key={path} path={`${path}/*`} element={<Page />} /> : <Route key="index" index element={<Page />} />,
        )}
        <Route path="*" element={<OpsNotFound />} />
      </Route>
    </Routes>
  );
}

function OpsNotFound() {
  usePageHead('Not found — Ques operators', 'This console page does not exist.', window.location.pathname);
  return (
    <section className="admin-page">
      <h1 className="admin-page__title">Not found</h1>
      <p className="empty-state">
        This console page does not exist. <Link to="/ops" className="text-link">Go to the console</Link>
      </p>
    </section>
  );
}
