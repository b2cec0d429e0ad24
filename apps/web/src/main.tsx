import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { preloadFirstScreen } from '@/app/router';
import { applyTheme, readStoredTheme } from '@/hooks/use-theme';

// Apply the saved theme before the first paint, so a dark-theme user never sees a light flash.
applyTheme(readStoredTheme());

preloadFirstScreen(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
