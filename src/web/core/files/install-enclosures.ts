import { installEnclosureDownloads } from './enclosure';

// Imported once by the app shell (app-shell.tsx), which every page with content loads: the document-level download-enclosure click handler (spec S7.F6).
installEnclosureDownloads();
