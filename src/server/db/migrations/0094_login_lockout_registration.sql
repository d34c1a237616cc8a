-- Failed logins are also counted per client address (core/auth/lockout.ts).
CREATE INDEX login_attempts_ip_at_idx ON login_attempts (ip, at DESC) WHERE NOT success;

-- Self-registration (/auth/register) is off unless an administrator turns it on, with the role and the
-- organisation a registered account gets (core/auth/registration.ts).
INSERT INTO sys_config (config_key, config_value, description) VALUES
  ('registerEnabled', 'false', '是否开放自助注册（短信验证码注册账号）'),
  ('registerRoleId', '', '自助注册账号获得的角色编号（留空则不授予角色）'),
  ('registerOrgId', '', '自助注册账号所属的组织编号（留空则不属于任何组织）')
ON CONFLICT (config_key) DO NOTHING;
