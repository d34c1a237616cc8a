import { FontSizeOutlined } from '@ant-design/icons';
import { App, Dropdown } from 'antd';
import { SIZE_OPTIONS, type UiSize } from '../../../shared/constants';
import { useApp } from '../stores/app';

export const SIZE_LABELS: Record<UiSize, string> = { default: '默认', medium: '中等', small: '较小', mini: '迷你' };
export const SIZE_CHANGED = '布局设置成功';

/** The UI size selector of the navbar: default, medium, small, mini (spec §2), kept in the `size` cookie. */
export function SizeSelect() {
  const { message } = App.useApp();
  const size = useApp((s) => s.size);
  const setSize = useApp((s) => s.setSize);
  return (
    <Dropdown
      trigger={['click']}
      rootClassName="size-dropdown"
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZE_OPTIONS.map((key) => ({ key, label: <span data-size={key}>{SIZE_LABELS[key]}</span> })),
        onClick: ({ key }) => {
          setSize(key as UiSize);
          void message.success(SIZE_CHANGED);
        },
      }}
    >
      <button type="button" className="navbar-icon size-select" aria-label="布局大小" title="布局大小">
        <FontSizeOutlined />
      </button>
    </Dropdown>
  );
}
