/**
 * 移动终端 (menu service-mobile, issue 31): what the mobile terminal is, its link and QR code to open it on a
 * phone (same account and session rules as this site; the phone can add it to its home screen).
 */
import { Alert, Button, Card, Col, Row, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { qrDataUrl } from '../../core/upload/mobile';

/** The screens the mobile terminal has today; the rest of issue 31 lands later and is not listed. */
const SCREENS = [
  ['首页', '我的待办（可直接办结）和未读提醒'],
  ['消息', '私信、提醒和通知，点开即标为已读'],
  ['我的', '个人信息、我的党费（应缴、已缴、收据，开通在线缴费时可在手机上缴纳）、访问电脑版、退出登录'],
  ['学习', '我的课程、从上次停下的位置继续看视频或读文档、考试、本年度学时、下载结业证书'],
  ['会议', '本组织的三会一课和主题党日；扫支部书记出示的二维码签到'],
  ['我的档案', '本人党员信息（身份证号隐去中间位），申请修改后由党支部审核'],
  ['我的组织、我的发展、通知', '所在党支部与支委会、书记联系方式；入党申请人的发展进度和党校培训班；通知公告'],
];

export default function ServiceMobilePage() {
  const link = `${window.location.origin}/web/m/`;
  const [qr, setQr] = useState('');
  useEffect(() => {
    void qrDataUrl(link).then(setQr, () => setQr(''));
  }, [link]);
  return (
    <div className="page-container">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={9}>
          <Card title="扫码打开手机端" style={{ textAlign: 'center' }}>
            {qr ? <img src={qr} alt="手机端二维码" width={220} height={220} /> : <div style={{ height: 220 }} />}
            <Typography.Paragraph copyable={{ text: link }} style={{ marginTop: 12 }}>
              {link}
            </Typography.Paragraph>
            <Button type="primary" href="/web/m/" target="_blank">
              在本机打开
            </Button>
          </Card>
        </Col>
        <Col xs={24} md={15}>
          <Card title="移动终端">
            <Typography.Paragraph>
              党员、支部书记和入党申请人在手机上使用的党建应用：用本系统的账号登录，手机浏览器登录后自动进入手机端，页面底部可切换功能，右上角可随时访问电脑版。
              在手机浏览器中可“添加到主屏幕”，像应用一样打开；断网时显示“离线”，数据不会保存在手机上。
            </Typography.Paragraph>
            <ul aria-label="手机端功能">
              {SCREENS.map(([name, text]) => (
                <li key={name}>
                  <b>{name}</b>：{text}
                </li>
              ))}
            </ul>
            <Alert type="info" showIcon title="登录记录中，手机端的会话终端类型为“移动端”（在线用户列表可见）。" />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
