import { Divider, Drawer, Switch } from 'antd';
import type { ReactNode } from 'react';
import { DEFAULT_THEME } from '../../../shared/constants';
import { useSettings, type LayoutSettings } from '../stores/settings';

export const SETTINGS_TITLE = '系统布局设置';

/** Preset theme colours offered next to the free choice (the default first). */
const PRESETS = [DEFAULT_THEME, '#c8161d', '#1677ff', '#13c2c2', '#52c41a', '#fa8c16', '#722ed1', '#304156'];

const SWITCHES: { key: Exclude<keyof LayoutSettings, 'theme'>; label: string }[] = [
  { key: 'tagsView', label: '显示标签' },
  { key: 'fixedHeader', label: '固定头部' },
  { key: 'sidebarLogo', label: '显示Logo' },
  { key: 'uniqueOpened', label: '菜单手风琴' },
  { key: 'showFooter', label: '显示页脚' },
];

/**
 * Theme colour: preset swatches plus the browser's own colour input for any other colour. Not antd's
 * ColorPicker: antd's button styles import its colour helpers, so using the picker anywhere puts its
 * panel code (and Collapse) into the login page's first download.
 */
function ThemeColor({ value, onChange }: { value: string; onChange: (colour: string) => void }) {
  const current = value.toLowerCase();
  return (
    <div className="theme-colors" role="radiogroup" aria-label="主题颜色">
      {PRESETS.map((colour) => (
        <button
          key={colour}
          type="button"
          role="radio"
          aria-checked={current === colour.toLowerCase()}
          aria-label={colour}
          title={colour}
          className="theme-swatch"
          style={{ background: colour }}
          onClick={() => onChange(colour)}
        />
      ))}
      <input type="color" className="theme-custom" aria-label="自定义颜色" title="自定义颜色" value={current} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="settings-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

/** The settings drawer (spec §2): theme colour, show tags, fixed header, show logo, menu unique-opened. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const settings = useSettings();
  return (
    <Drawer title={SETTINGS_TITLE} open={open} onClose={onClose} size={300} className="settings-drawer">
      <Divider titlePlacement="start" plain>
        主题
      </Divider>
      <div className="settings-row theme-row">
        <span>主题颜色</span>
        <ThemeColor value={settings.theme} onChange={(colour) => settings.changeSetting('theme', colour)} />
      </div>
      <Divider titlePlacement="start" plain>
        布局
      </Divider>
      {SWITCHES.map(({ key, label }) => (
        <Row key={key} label={label}>
          <Switch checked={settings[key]} onChange={(checked) => settings.changeSetting(key, checked)} aria-label={label} data-setting={key} />
        </Row>
      ))}
    </Drawer>
  );
}
