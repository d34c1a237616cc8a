import { App, Typography } from 'antd';

export interface IssuedPassword {
  username: string;
  password: string;
}

/**
 * Shows one-time passwords the server issued (new account, reset, opening) to the administrator, once:
 * they are stored only as hashes, so closing this dialog is the last chance to read them.
 */
export function useShowOneTimePasswords() {
  const { modal } = App.useApp();
  return (passwords: IssuedPassword[] | undefined, heading: string) => {
    if (!passwords?.length) return;
    modal.info({
      title: heading,
      width: 520,
      className: 'one-time-passwords',
      mask: { closable: false },
      keyboard: false,
      okText: '我已记下',
      content: (
        <div>
          <p>请将一次性密码告知用户本人。密码只显示这一次，72小时内有效，用户首次登录后须修改密码。</p>
          <table className="one-time-passwords-table">
            <tbody>
              {passwords.map((p) => (
                <tr key={p.username}>
                  <td>{p.username}</td>
                  <td>
                    <Typography.Text code copyable={{ text: p.password, tooltips: ['复制', '已复制'] }} data-username={p.username}>
                      {p.password}
                    </Typography.Text>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ),
    });
  };
}
