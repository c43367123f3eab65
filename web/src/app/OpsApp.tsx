import { lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AreaNotFound } from '../components/AreaNotFound';
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
        <Route path="*" element={<AreaNotFound title="Not found — Ques operators" description="This console page does not exist." home="/ops" homeLabel="Go to the console" />} />
      </Route>
    </Routes>
  );
}
