import { Tag, Tooltip } from 'antd';
import { parseTime } from '../../../../shared/format';

/** A timestamp cell: `YYYY-MM-DD hh:mm:ss`, or a dash. */
export const timeCell = (value: string | null | undefined) => parseTime(value) || '-';

/** A long text cut to one line, whole on hover. */
export const ellipsisCell = (value: string | null | undefined) =>
  value ? (
    <Tooltip title={value} placement="topLeft">
      <span className="cell-ellipsis">{value}</span>
    </Tooltip>
  ) : (
    '-'
  );

/** 是 / 否 as a tag. */
export const yesNoCell = (value: boolean | null | undefined) => (value ? <Tag color="blue">是</Tag> : <Tag>否</Tag>);
