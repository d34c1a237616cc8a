import { endpoints } from '../config/endpoints';

/** Base64 of a string's UTF-8 bytes (what the preview service decodes). */
export function base64Utf8(text: string): string {
  return btoa(unescape(encodeURIComponent(text)));
}

/** The absolute URL of a stored file: the image base URL followed by its id. */
export function fileUrl(id: string | number, origin: string = window.location.origin): string {
  return new URL(`${endpoints.imageBaseUrl}${encodeURIComponent(String(id))}`, origin).href;
}

/** The online-preview page of a document: `<filePreviewService>?url=<base64 of the file URL>` (spec S7.F8). */
export function filePreviewUrl(id: string | number, origin: string = window.location.origin): string {
  return `${endpoints.filePreviewService}?url=${encodeURIComponent(base64Utf8(fileUrl(id, origin)))}`;
}

/** Opens a document's preview in a new window. */
export function previewDocument(id: string | number): void {
  window.open(filePreviewUrl(id), '_blank', 'noopener');
}
