/** A completion certificate as a printable page, with its PDF and verification address. */
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton, Space } from 'antd';
import { download } from '../../core/request/download';
import { PschoolNav, usePathParam } from './PschoolNav';
import { pschoolApi } from './api';

export default function CertificatePage() {
  const id = Number(usePathParam('/pschool/certificate/:id', 'id'));
  const cert = useQuery({ queryKey: ['pschool', 'certificate', id], queryFn: () => pschoolApi.certificate(id), enabled: id > 0 });
  if (cert.isError) return <div className="page-container"><PschoolNav /><Alert type="warning" showIcon message="证书不存在" /></div>;
  if (!cert.data) return <div className="page-container"><Skeleton active /></div>;
  const c = cert.data;
  const issued = new Date(c.issuedAt);
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      <Space wrap className="ps-no-print" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>打印</Button>
        <Button icon={<DownloadOutlined />} disabled={!c.valid} onClick={() => void download(`/api/pschool/certificates/${c.id}/pdf`, undefined, `结业证书-${c.no}.pdf`)}>下载PDF</Button>
      </Space>
      {!c.valid && <Alert type="error" showIcon message="该证书已作废" style={{ marginBottom: 16 }} />}
      <div className="ps-cert" data-testid="pschool-certificate">
        <h1>结业证书</h1>
        <p>
          <b>{c.holderName}</b>同志参加{c.batchName && `“${c.batchName}”`}{c.className}{c.stage && `（${c.stage}培训）`}学习，完成规定学时{c.hours}学时，经考核合格，准予结业。
        </p>
        <p style={{ textAlign: 'center', textIndent: 0 }}>特发此证</p>
        <div className="ps-cert-foot">
          <div className="ps-muted">
            证书编号：<span data-testid="pschool-certificate-no">{c.no}</span>
            <br />验证地址：{c.verifyUrl}
          </div>
          <div style={{ textAlign: 'right' }}>
            {c.issuer}
            <br />
            {issued.getFullYear()}年{issued.getMonth() + 1}月{issued.getDate()}日
          </div>
        </div>
      </div>
    </div>
  );
}
