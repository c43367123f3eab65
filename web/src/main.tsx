import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { session } from './lib/auth/session';
import { HeadCollector } from './lib/head';
import { PageDataProvider, readPageData } from './lib/ssr';
import { loadProfilePage } from './features/public-profile/load';
import { prefetchPublicPage } from './features/public-profile/api';
import { rememberTimeZone } from './lib/time-zone';
import './styles/global.css';

rememberTimeZone();

// A page the BFF rendered (docs/adr/0024) carries the data it was rendered with: the first render reuses it.
const pageData = readPageData(document);
const holder = { current: pageData };

// Public profile fast path of a client-rendered page: fetch the page's chunk and data while React boots.
const ask = /^\/ask\/([^/]+)\/?$/.exec(window.location.pathname);
if (ask?.[1] && !pageData) {
  prefetchPublicPage(decodeURIComponent(ask[1]));
  void loadProfilePage();
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const app = (
  <StrictMode>
    <BrowserRouter>
      <HeadCollector.Provider value={null}>
        <PageDataProvider holder={holder}>
          <App />
        </PageDataProvider>
      </HeadCollector.Provider>
    </BrowserRouter>
  </StrictMode>
);
// Same tree as entry-server.tsx (hydration compares them). The server renders what a guest sees; a signed-in visitor's page (header, owner notice) is rendered here.
if (pageData && !session.accessToken()) hydrateRoot(container, app);
else createRoot(container).render(app);
