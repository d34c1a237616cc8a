/** The label 党费交至 with what it means, wherever the figure is shown (我的党费, 现场缴费). */
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';

export const PAID_UP_TO_HELP = '党费交至：从第一个应缴月份起连续缴清的最后一个月；此后有未缴月份的，以未缴月份的前一个月为准';

export function PaidUpToLabel() {
  return (
    <Tooltip title={PAID_UP_TO_HELP}>
      <span>
        党费交至 <QuestionCircleOutlined aria-label="党费交至的含义" />
      </span>
    </Tooltip>
  );
}
