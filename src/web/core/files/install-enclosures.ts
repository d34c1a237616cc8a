import { installEnclosureDownloads } from './enclosure';

// Imported once by main.tsx: the document-level download-enclosure click handler (spec S7.F6).
installEnclosureDownloads();
