-- Branding defaults: empty logos fall back to the school's logo; the footer carries only the support line
-- (the school's own footer text is shown beside it). Values an administrator changed are kept.
UPDATE sys_config SET config_value = '' WHERE config_key IN ('htmlLogo', 'htmlExpandLogo') AND config_value = '/web/favicon.svg';
UPDATE sys_config SET config_value = '<p>技术支持：信息化建设与管理中心</p>'
  WHERE config_key = 'footHtml' AND config_value = '<p>版权所有 © 2026 党委组织部 · 技术支持：信息化建设与管理中心</p>';
