import { NotFound } from '../components/NotFound';

/** Any address the app has no page for (its own chunk: App.tsx loads it lazily). */
export default function NotFoundPage() {
  return <NotFound />;
}
