import { SettingOutlined } from '@ant-design/icons';
import type { ColumnVisibilityState } from '@tanstack/react-table';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { useState } from 'react';
import type { ColumnSpec } from '../model';

const storageKey = (module: string) => `dangjian.columns.${module}`;

/** The columns a user hid in a module's list, kept in localStorage per module. */
export function useColumnVisibility(module: string) {
  const [visibility, setVisibility] = useState<ColumnVisibilityState>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey(module)) ?? '{}') as unknown;
      return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as ColumnVisibilityState) : {};
    } catch {
      return {};
    }
  });
  const update = (next: ColumnVisibilityState) => {
    setVisibility(next);
    if (Object.values(next).some((v) => v === false)) localStorage.setItem(storageKey(module), JSON.stringify(next));
    else localStorage.removeItem(storageKey(module));
  };
  return [visibility, update] as const;
}

/** 列设置: check the columns to show; at least one stays. */
export function ColumnChooser({
  specs,
  visibility,
  onChange,
}: {
  specs: ColumnSpec[];
  visibility: ColumnVisibilityState;
  onChange: (v: ColumnVisibilityState) => void;
}) {
  const shown = specs.filter((s) => visibility[s.field] !== false);
  const content = (
    <div className="rt-chooser">
      <div className="rt-chooser-head">
        <Checkbox
          checked={shown.length === specs.length}
          indeterminate={shown.length > 0 && shown.length < specs.length}
          onChange={(e) => onChange(e.target.checked ? {} : Object.fromEntries(specs.slice(1).map((s) => [s.field, false])))}
        >
          全部列
        </Checkbox>
        <Button type="link" size="small" onClick={() => onChange({})}>
          重置
        </Button>
      </div>
      <div className="rt-chooser-list">
        {specs.map((s) => (
          <Checkbox
            key={s.field}
            checked={visibility[s.field] !== false}
            disabled={shown.length === 1 && visibility[s.field] !== false}
            onChange={(e) => onChange({ ...visibility, [s.field]: e.target.checked })}
          >
            {s.title}
          </Checkbox>
        ))}
      </div>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" title="列设置">
      <Tooltip title="列设置">
        <Button icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  );
}
