import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Result } from 'antd';

/** What a cadre page shows until the uKey was validated. */
export function UkeyWait() {
  return (
    <Result
      className="cadre-ukey-wait"
      icon={<SafetyCertificateOutlined />}
      title="干部信息受uKey保护"
      subTitle="请插入干部安全数字证书uKey并按提示输入PIN码，验证通过后即可查看。"
    />
  );
}
