/**
 * 我的党费 on a narrow screen (issue 33.15): each month a card instead of a table row, so the batch name,
 * state, amounts and receipt all show at 390 px without scrolling sideways; the card's checkbox selects
 * a payable month as the table's does.
 */
import { Checkbox, Empty, Space, Tag } from 'antd';
import type { MemberItem, Receipt } from '../../../shared/dues/api';
import { timeText } from './api';

export function MyDuesCards({ items, receipts, selected, onSelect, onReceipt, statusColor }: {
  items: MemberItem[];
  receipts: Receipt[];
  selected: number[];
  onSelect: (ids: number[]) => void;
  onReceipt: (receipt: Receipt) => void;
  statusColor: Record<string, string>;
}) {
  if (!items.length) return <Empty description="暂无党费记录" />;
  return (
    <ul className="dues-my-cards" aria-label="我的党费">
      {items.map((i) => {
        const receipt = receipts.find((r) => r.id === i.paymentId);
        const checked = selected.includes(i.id);
        return (
          <li key={i.id} className="dues-my-card" data-item={i.id}>
            <div className="dues-my-card-head">
              {i.canPay && (
                <Checkbox checked={checked} aria-label={`选择${i.title}`} onChange={(e) => onSelect(e.target.checked ? [...selected, i.id] : selected.filter((id) => id !== i.id))} />
              )}
              <span className="dues-my-card-title">{i.title}</span>
            </div>
            <Space size={4} wrap>
              <Tag color={statusColor[i.status]}>{i.statusLabel}</Tag>
              {i.backPay && <Tag color="blue">可补缴</Tag>}
            </Space>
            <dl className="dues-my-card-facts">
              <dt>应交</dt>
              <dd>{i.due} 元</dd>
              <dt>实交</dt>
              <dd>{i.paid} 元</dd>
              {i.paidAt && (
                <>
                  <dt>缴费时间</dt>
                  <dd>{timeText(i.paidAt)}</dd>
                </>
              )}
              {receipt && (
                <>
                  <dt>收据</dt>
                  <dd>
                    <a onClick={() => onReceipt(receipt)}>{receipt.receiptNo}</a>
                  </dd>
                </>
              )}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
