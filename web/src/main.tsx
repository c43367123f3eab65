import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from './lib/router';
import { App } from './app/App';
import { loadProfilePage } from './features/public-profile/load';
import { prefetchPublicPage } from './features/public-profile/api';
import './styles/global.css';

// Public profile fast path: fetch the page's chunk and data while React boots.
const ask = /^\/ask\/([^/]+)\/?$/.exec(window.location.pathname);
if (ask?.[1]) {
  prefetchPublicPage(decodeURIComponent(ask[1]));
  void loadProfilePage();
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
