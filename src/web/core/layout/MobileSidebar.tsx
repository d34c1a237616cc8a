import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { SIDEBAR_WIDTH } from '../../../shared/constants';
import { defaultSettings } from '../../../shared/school-branding';

/** The sidebar of the mobile layout: a drawer from the left. Loaded only below the mobile breakpoint. */
export default function MobileSidebar({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer open={open} placement="left" size={SIDEBAR_WIDTH} closable={false} onClose={onClose} className="sidebar-drawer" styles={{ body: { padding: 0, background: defaultSettings.menuBg } }}>
      {children}
    </Drawer>
  );
}
