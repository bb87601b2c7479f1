// The page's one door into the core: the browser-safe entry (types, and the transcript the CLI prints with).
export * from '../core/browser.js';
