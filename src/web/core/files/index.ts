export { ENCLOSURE_CLASS, downloadEnclosure, enclosureOf, installEnclosureDownloads, type Enclosure } from './enclosure';
export { base64Utf8, filePreviewUrl, fileUrl, previewDocument } from './preview';
export { useFileObjectUrl } from './useFileObjectUrl';
