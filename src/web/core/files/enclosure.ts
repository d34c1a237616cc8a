import { endpoints } from '../config/endpoints';
import { filenameFromDisposition, saveBlob } from '../request/download';
import { request } from '../request/request';

/** Elements of this class in any content (rich text, notices, lists) download the file they name. */
export const ENCLOSURE_CLASS = 'download-enclosure';

export interface Enclosure {
  id: string;
  /** The element's text: the name the file is saved under. */
  name: string;
}

/** The enclosure a click landed in: the nearest `.download-enclosure` with a `data-id` (or `id`). */
export function enclosureOf(target: EventTarget | null): Enclosure | undefined {
  const element = target instanceof Element ? target.closest(`.${ENCLOSURE_CLASS}`) : null;
  if (!element) return undefined;
  const id = (element.getAttribute('data-id') ?? element.getAttribute('id') ?? '').trim();
  if (!id) return undefined;
  return { id, name: (element.textContent ?? '').trim() };
}

/** `GET /api/file/download?id=<id>` as a blob, saved under `name` (the server's name when `name` is blank). */
export async function downloadEnclosure({ id, name }: Enclosure): Promise<string> {
  const response = await request.get<Blob>(endpoints.fileDownload, { params: { id }, responseType: 'blob' });
  const filename = name || filenameFromDisposition(response.headers['content-disposition'] as string | undefined) || 'download';
  saveBlob(response.data, filename);
  return filename;
}

let installed: (() => void) | undefined;

/**
 * The download-enclosure behaviour of spec S7.F6, installed once for the whole document: a click on an
 * enclosure downloads its file with the session's token (a plain link could not send it).
 */
export function installEnclosureDownloads(root: Document = document): () => void {
  if (installed) return installed;
  const onClick = (event: MouseEvent) => {
    const enclosure = enclosureOf(event.target);
    if (!enclosure) return;
    event.preventDefault();
    void downloadEnclosure(enclosure).catch(() => undefined); // the request layer has told the user
  };
  root.addEventListener('click', onClick);
  installed = () => {
    root.removeEventListener('click', onClick);
    installed = undefined;
  };
  return installed;
}
