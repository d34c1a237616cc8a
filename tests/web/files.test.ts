import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../src/web/core/config/endpoints';
import { enclosureOf, installEnclosureDownloads } from '../../src/web/core/files/enclosure';
import { base64Utf8, filePreviewUrl, previewDocument } from '../../src/web/core/files/preview';
import { request } from '../../src/web/core/request/request';

const original = request.defaults.adapter;
const sent: InternalAxiosRequestConfig[] = [];
const saved: string[] = [];
let uninstall: () => void;

beforeAll(() => {
  // What saveBlob hands to the browser: an <a download> click per saved file.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.download) saved.push(this.download);
  });
  URL.createObjectURL = vi.fn(() => 'blob:test');
  URL.revokeObjectURL = vi.fn();
  uninstall = installEnclosureDownloads();
});
afterAll(() => {
  uninstall();
  vi.restoreAllMocks();
});
afterEach(() => {
  request.defaults.adapter = original;
  sent.length = 0;
  saved.length = 0;
  document.body.innerHTML = '';
});

function answerFile(serverName = 'server-name.bin') {
  const adapter: AxiosAdapter = async (config) => {
    sent.push(config);
    return { status: 200, statusText: 'OK', data: new Blob(['PK']), headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(serverName)}` }, config };
  };
  request.defaults.adapter = adapter;
}

const click = (el: Element) => el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('download enclosures (spec S7.F5, S7.F6)', () => {
  it('[S7.F6][S7.F5] a click on .download-enclosure downloads /api/file/download?id=<data-id> as a blob saved under its text', async () => {
    answerFile();
    document.body.innerHTML = '<div class="rich"><p>附件：<a class="download-enclosure" data-id="42" href="#"><span>报告.docx</span></a></p></div>';
    const inner = document.querySelector('span')!;
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    inner.dispatchEvent(event);
    await settle();
    expect(event.defaultPrevented).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe(endpoints.fileDownload);
    expect(sent[0].url).toBe('/api/file/download');
    expect(sent[0].params).toEqual({ id: '42' });
    expect(sent[0].responseType).toBe('blob');
    expect(saved).toEqual(['报告.docx']);
  });

  it('[S7.F6] the id may come from the id attribute; without any id, or outside an enclosure, nothing is downloaded', async () => {
    answerFile();
    document.body.innerHTML = '<span class="download-enclosure" id="9"> 名单.xlsx </span><span class="download-enclosure">无编号.pdf</span><a class="other" data-id="3">x</a>';
    const [withId, withoutId] = document.querySelectorAll('.download-enclosure');
    click(withoutId);
    click(document.querySelector('.other')!);
    await settle();
    expect(sent).toHaveLength(0);
    click(withId);
    await settle();
    expect(sent.map((c) => c.params)).toEqual([{ id: '9' }]);
    expect(saved).toEqual(['名单.xlsx']);
  });

  it('an enclosure without text is saved under the server name; the handler is installed only once', async () => {
    answerFile('原始名称.pdf');
    expect(installEnclosureDownloads()).toBe(uninstall); // a second call adds no second listener
    document.body.innerHTML = '<a class="download-enclosure" data-id="5"></a>';
    click(document.querySelector('a')!);
    await settle();
    expect(sent).toHaveLength(1);
    expect(saved).toEqual(['原始名称.pdf']);
    expect(enclosureOf(document.body)).toBeUndefined();
  });
});

describe('document preview (spec S7.F8, S9.L12a)', () => {
  it('[S7.F8] opens the preview service in a new window with the base64 of image base URL + id', () => {
    const url = filePreviewUrl(15, 'https://dj.example.edu.cn');
    expect(endpoints.filePreviewService).toBeTruthy();
    expect(url.startsWith(`${endpoints.filePreviewService}?url=`)).toBe(true);
    const encoded = decodeURIComponent(url.split('?url=')[1]);
    expect(atob(encoded)).toBe(`https://dj.example.edu.cn${endpoints.imageBaseUrl}15`);
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    previewDocument(15);
    expect(open).toHaveBeenCalledWith(expect.stringContaining(`${endpoints.filePreviewService}?url=`), '_blank', 'noopener');
  });

  it('base64 of a URL with non-ASCII characters round-trips as UTF-8', () => {
    const text = 'https://x/文件?id=1';
    expect(new TextDecoder().decode(Uint8Array.from(atob(base64Utf8(text)), (c) => c.charCodeAt(0)))).toBe(text);
  });
});
