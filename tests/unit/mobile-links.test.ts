import { describe, expect, it } from 'vitest';
import { desktopUrlOf, mobilePathOf } from '../../src/shared/mobile-links';

describe('to-do links on a phone (issue 31)', () => {
  it('a workflow step\'s to-do opens the record\'s approval screen, whatever its desktop path', () => {
    expect(mobilePathOf({ link: '/development/process?id=5', module: 'development', refId: '5:talk' })).toBe('approvals/development/5');
    expect(mobilePathOf({ link: null, module: 'transfer-out', refId: '12:committee' })).toBe('approvals/transfer-out/12');
  });

  it('a workflow record\'s desktop page (a link made by hand, no module) opens its approval screen too', () => {
    expect(mobilePathOf({ link: '/development/process?id=7' })).toBe('approvals/development/7');
    expect(mobilePathOf({ link: '/web/transfer/out?id=3' })).toBe('approvals/transfer-out/3');
    expect(mobilePathOf({ link: '/transfer/out' })).toBeNull();
    expect(mobilePathOf({ link: '/transfer/out?id=x' })).toBeNull();
  });

  it('mobile links, 我的党费 and the message centre map to their screens', () => {
    expect(mobilePathOf({ link: '/web/m/dues' })).toBe('dues');
    expect(mobilePathOf({ link: '/m/approvals' })).toBe('approvals');
    expect(mobilePathOf({ link: '/party-dues/my' })).toBe('dues');
    expect(mobilePathOf({ link: '/web/party-dues/my' })).toBe('dues');
    expect(mobilePathOf({ link: '/message-center/todo' })).toBe('messages');
  });

  it('anything else (a form to fill, a to-do without a record, another site) opens the full site', () => {
    expect(mobilePathOf({ link: '/web/stat/fill-in?form=f1&org=3', module: 'f1', refId: '3' })).toBeNull();
    expect(mobilePathOf({ link: null })).toBeNull();
    expect(mobilePathOf({ link: '//evil.example/x' })).toBeNull();
    expect(desktopUrlOf('/development/process?id=5')).toBe('/web/development/process?id=5');
    expect(desktopUrlOf('/web/stat/fill-in?form=f1')).toBe('/web/stat/fill-in?form=f1');
    expect(desktopUrlOf('https://evil.example/')).toBe('/web/');
  });
});
