/** A printable receipt (党费收据) per payment: number, member, months, amount, payer, collector. */
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import type { Receipt } from '../../../shared/dues/api';
import { capitalYuan, parseYuan } from '../../../shared/dues/money';
import { timeText } from './api';

export function ReceiptView({ receipt: r }: { receipt: Receipt }) {
  const reversal = r.kind === 2;
  return (
    <div className="dues-receipt" data-receipt={r.receiptNo}>
      <h3>{reversal ? '党费冲正凭证' : '中国共产党党费收据'}</h3>
      <div className="dues-receipt-no">No. {r.receiptNo}</div>
      <table>
        <tbody>
          <tr>
            <th>交纳人</th>
            <td>{r.memberName}</td>
            <th>所在党支部</th>
            <td>{r.orgName}</td>
          </tr>
          <tr>
            <th>缴纳明细</th>
            <td colSpan={3} className="dues-receipt-entries">
              {r.entries.map((e, i) => (
                <div key={i}>{`${e.label}（${e.amount}元）`}</div>
              ))}
            </td>
          </tr>
          <tr>
            <th>金额（大写）</th>
            <td colSpan={2}>{capitalYuan(parseYuan(r.amount, { negative: true }) ?? 0)}</td>
            <td className="dues-receipt-amount">¥{r.amount}</td>
          </tr>
          <tr>
            <th>缴纳方式</th>
            <td>{r.methodLabel}</td>
            <th>日期</th>
            <td>{timeText(r.createdAt)}</td>
          </tr>
          <tr>
            <th>交款人</th>
            <td>{r.payer}</td>
            <th>收款人</th>
            <td>{r.collector}</td>
          </tr>
          {reversal && (
            <tr>
              <th>冲正</th>
              <td colSpan={3}>{`冲正收据 ${r.reverses?.receiptNo ?? ''}：${r.reason}`}</td>
            </tr>
          )}
        </tbody>
      </table>
      {r.large && <div className="dues-receipt-note">一次交纳1000元以上的党费，全部上缴中央（中组发〔2008〕3号）。</div>}
      {r.reversedBy && <div className="dues-receipt-note">本收据已于{timeText(r.reversedBy.createdAt)}冲正（{r.reversedBy.receiptNo}）：{r.reversedBy.reason}</div>}
    </div>
  );
}

/** The receipts of a payment (one per member), with 打印: only the receipts are printed. */
export function ReceiptsModal({ receipts, onClose }: { receipts: Receipt[]; onClose: () => void }) {
  return (
    <Modal
      open
      width={720}
      title={receipts.length > 1 ? `缴费收据（${receipts.length}张）` : '缴费收据'}
      onCancel={onClose}
      mask={{ closable: false }}
      keyboard={false}
      footer={[
        <Button key="print" type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印收据
        </Button>,
        <Button key="close" onClick={onClose}>
          关闭
        </Button>,
      ]}
    >
      <div className="dues-print">
        {receipts.map((r) => (
          <ReceiptView key={r.id} receipt={r} />
        ))}
      </div>
    </Modal>
  );
}
