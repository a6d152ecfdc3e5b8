import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { listenForMissingCode } from './lib/new-version';
import './styles.css';

// A chunk of a release no longer deployed: reload once, or say so (docs/product.md: A new version while a tab is open).
listenForMissingCode();

const root = document.getElementById('root');
if (!root) throw new Error('No #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
