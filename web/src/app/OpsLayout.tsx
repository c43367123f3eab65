import { SideNavLayout, type SideNavGroup } from '../components/SideNavLayout';
import { useAuth } from '../lib/auth/auth-context';
// The console has the admin area's look: the same layout and list styles.
import '../features/admin/admin.css';
import { OPS_GROUPS, OPS_SECTIONS } from './ops-sections';

const hrefOf = (path: string) => (path ? `/ops/${path}` : '/ops');

/** The console's navigation, built from OPS_SECTIONS in OPS_GROUPS' order. */
const GROUPS: readonly SideNavGroup[] = OPS_GROUPS.map((heading) => ({
  heading,
  items: OPS_SECTIONS.filter((s) => s.group === heading).map((s) => ({
    to: hrefOf(s.path),
    label: s.label,
    end: !s.path,
  })),
}));

/** The operator console's frame (issue 18): the admin area's side navigation, built from OPS_SECTIONS. */
export function OpsLayout() {
  const { user } = useAuth();
  return (
    <SideNavLayout
      className="ops"
      navLabel="Operator console"
      groups={GROUPS}
      whoName="Operator console"
      footer={<p className="ops__who">Signed in as @{user?.username}</p>}
    />
  );
}
