import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/web/core/config/endpoints';
import { api } from '../support/api.js';
import { CONTEXT, webUrl } from '../support/browser.js';
import { browser, baseUrl, createUser, openAs, apiUpload, useCoreSession } from './core-helpers.js';

useCoreSession();

describe('files', () => {
  it('[S7.F4b][S7.F4a] an upload shows a 0–100 % progress that updates and ends at 100', async () => {
    const user = await createUser('upl');
    const page = await openAs(user, '/user/center?tab=files');
    await page.getByRole('button', { name: '上传文件' }).waitFor();
    // Slow the network so the progress can be watched.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __percents: number[] }).__percents = seen;
      new MutationObserver(() => {
        const el = document.querySelector('.upload-button .upload-progress');
        const p = el ? Number(el.getAttribute('data-percent')) : NaN;
        if (!Number.isNaN(p) && seen.at(-1) !== p) seen.push(p);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
    });
    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/file/upload'), { timeout: 60_000 });
    await page.locator('.upload-button input[type=file]').setInputFiles({ name: '党建资料.pdf', mimeType: 'application/pdf', buffer: big });
    expect((await answered).status()).toBe(200);
    await page.locator('.upload-button .upload-progress[data-status="done"]').waitFor();
    const percents = await page.evaluate(() => (window as unknown as { __percents: number[] }).__percents);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(percents.at(-1)).toBe(100);
    expect(percents.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(await page.locator('.upload-button .ant-progress').getAttribute('class')).toContain('ant-progress-status-success');
    // The stored file is listed in 我的文件.
    await page.locator('.my-files .ant-table').getByText('党建资料.pdf').waitFor();
    await page.context().close();
  });

  it('[S7.F6] a .download-enclosure element downloads /api/file/download?id=<id>, saved under its text', async () => {
    const user = await createUser('encl');
    const file = await apiUpload(user.token, 'server-side-name.docx', new TextEncoder().encode('PK fake docx'));
    const page = await openAs(user, '/dashboard');
    await page.locator('.navbar').waitFor();
    await page.evaluate((id) => {
      const box = document.createElement('div');
      box.innerHTML = `<p>附件：<a class="download-enclosure" data-id="${id}" href="#">报告.docx</a></p>`;
      document.querySelector('.app-main')!.appendChild(box);
    }, file.id);
    const requested = page.waitForRequest((r) => r.url().includes('/api/file/download'));
    const download = page.waitForEvent('download');
    await page.getByText('报告.docx').click();
    expect(new URL((await requested).url()).searchParams.get('id')).toBe(String(file.id));
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('报告.docx');
    const stream = await saved.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('PK fake docx');
    await page.context().close();
  });

  it('[S7.F8] preview opens the preview service in a new window with the base64 file URL of image base URL + id', async () => {
    const user = await createUser('prev');
    const file = await apiUpload(user.token, '制度汇编.pdf', new TextEncoder().encode('%PDF-1.4 test'));
    const page = await openAs(user, '/user/center?tab=files');
    const row = page.locator('.my-files tr', { hasText: '制度汇编.pdf' });
    await row.waitFor();
    const popup = page.context().waitForEvent('page');
    await row.getByRole('button', { name: /预\s*览/ }).click();
    const opened = await popup;
    const url = new URL(opened.url());
    expect(`${url.pathname}`).toBe(endpoints.filePreviewService);
    expect(Buffer.from(url.searchParams.get('url')!, 'base64').toString('utf8')).toBe(`${baseUrl()}${endpoints.imageBaseUrl}${file.key}`); // the unguessable key names a file in URLs
    await page.context().close();
  });

  it('[S2.R2a][S2.R2b][S2.R2c] 手机上传: the QR link opens /mobileUpload without a session and the phone upload reaches the desktop user', async () => {
    const user = await createUser('mob');
    const desktop = await openAs(user, '/user/center?tab=files');
    await desktop.getByRole('button', { name: '手机上传' }).click();
    const dialog = desktop.locator('.ant-modal').filter({ hasText: '手机上传' });
    await dialog.locator('img[alt="手机上传二维码"]').waitFor();
    const link = (await dialog.locator('.mobile-upload-link a').getAttribute('href'))!;
    expect(link).toMatch(new RegExp(`^${baseUrl()}/web/mobileUpload\\?token=`));

    // The phone: no cookies at all, a phone-sized screen.
    const phoneContext = await browser.newContext({ ...CONTEXT, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    await phone.goto(link);
    await phone.getByRole('button', { name: '选择文件' }).waitFor();
    expect(new URL(phone.url()).pathname).toBe('/web/mobileUpload');
    expect(await phone.title()).toMatch(/^上传文件/);
    expect(await phone.locator('.app-sidebar, .navbar').count()).toBe(0); // not in the layout, not a menu page
    await phone.locator('[data-testid=file-input]').setInputFiles({ name: '现场照片.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(300_000, 1) });
    await phone.getByText('上传成功').waitFor();
    expect(await phone.locator('.mobile-upload-progress, .ant-result').first().isVisible()).toBe(true);

    // The desktop dialog sees it, and the file is the desktop user's.
    await dialog.locator('.mobile-upload-received', { hasText: '现场照片.jpg' }).waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
    await desktop.locator('.my-files .ant-table').getByText('现场照片.jpg').waitFor();
    const own = await api<{ content: { name: string }[] }>('GET', '/api/localStorage?page=0&size=50', undefined, user.token);
    expect(own.body.content.map((f) => f.name)).toContain('现场照片.jpg');

    // The link works once: opened again it says so plainly.
    await phone.reload();
    await phone.getByText('二维码已失效，请在电脑端刷新').waitFor();
    await phoneContext.close();
    await desktop.context().close();
  });

  it('[S2.R2c] a token from the API: the phone page uploads without a session and the desktop state reports the file', async () => {
    const user = await createUser('mob2');
    const token = user.token;
    const created = await api<{ token: string }>('POST', '/api/file/mobileToken', undefined, token);
    const phoneContext = await browser.newContext({ ...CONTEXT, viewport: { width: 375, height: 700 } });
    const phone = await phoneContext.newPage();
    await phone.goto(webUrl(`/mobileUpload?token=${encodeURIComponent(created.body.token)}`));
    await phone.getByRole('button', { name: '拍照上传' }).waitFor();
    expect(await phoneContext.cookies()).toEqual([]);
    await phone.locator('[data-testid=photo-input]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.alloc(2000, 3) });
    await phone.getByText('上传成功').waitFor();
    const state = await api<{ used: boolean; file: { name: string } | null }>('GET', `/api/file/mobileToken/${encodeURIComponent(created.body.token)}`, undefined, token);
    expect(state.body.used).toBe(true);
    expect(state.body.file?.name).toBe('photo.png');
    await phone.goto(webUrl('/mobileUpload?token=not-a-token'));
    await phone.getByText('二维码已失效，请在电脑端刷新').waitFor();
    await phoneContext.close();
  });
});
