/**
 * The icons a menu entry may name (@ant-design/icons names). The layout draws them from one SVG sprite
 * (src/web/core/layout/menu-icons.svg, written by `npm run icons` from @ant-design/icons-svg), so the
 * sidebar's icons are one cached image rather than JavaScript in every first load. `schemas:check`
 * refuses a menu that names another icon; the menu admin page offers these.
 */
export const MENU_ICONS = [
  'AlertOutlined',
  'ApartmentOutlined',
  'ApiOutlined',
  'AppstoreAddOutlined',
  'AppstoreOutlined',
  'AuditOutlined',
  'BankOutlined',
  'BarChartOutlined',
  'BellOutlined',
  'BookOutlined',
  'CalendarOutlined',
  'CameraOutlined',
  'CarryOutOutlined',
  'CheckSquareOutlined',
  'ClusterOutlined',
  'CommentOutlined',
  'ContainerOutlined',
  'CopyOutlined',
  'CrownOutlined',
  'DashboardOutlined',
  'DatabaseOutlined',
  'DesktopOutlined',
  'DownloadOutlined',
  'EditOutlined',
  'EnvironmentOutlined',
  'FileDoneOutlined',
  'FileProtectOutlined',
  'FileSearchOutlined',
  'FileTextOutlined',
  'FlagOutlined',
  'FormOutlined',
  'HeartOutlined',
  'HistoryOutlined',
  'HomeOutlined',
  'IdcardOutlined',
  'InfoCircleOutlined',
  'LikeOutlined',
  'LoginOutlined',
  'LogoutOutlined',
  'MailOutlined',
  'MenuOutlined',
  'MessageOutlined',
  'MobileOutlined',
  'MoneyCollectOutlined',
  'NodeIndexOutlined',
  'OrderedListOutlined',
  'PayCircleOutlined',
  'PieChartOutlined',
  'PlayCircleOutlined',
  'ProfileOutlined',
  'ProjectOutlined',
  'ReadOutlined',
  'RetweetOutlined',
  'RiseOutlined',
  'SafetyCertificateOutlined',
  'ScheduleOutlined',
  'SearchOutlined',
  'SendOutlined',
  'SettingOutlined',
  'SnippetsOutlined',
  'SolutionOutlined',
  'StarOutlined',
  'SwapOutlined',
  'TableOutlined',
  'TeamOutlined',
  'ToolOutlined',
  'TrophyOutlined',
  'UserAddOutlined',
  'UserOutlined',
  'UserSwitchOutlined',
  'UsergroupAddOutlined',
  'WalletOutlined',
] as const;

export type MenuIconName = (typeof MENU_ICONS)[number];

/** The icon shown for a menu entry without an icon or with one outside the list. */
export const FALLBACK_MENU_ICON: MenuIconName = 'AppstoreOutlined';

export function isMenuIcon(name: string | null | undefined): name is MenuIconName {
  return !!name && (MENU_ICONS as readonly string[]).includes(name);
}
