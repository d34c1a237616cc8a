/** antd's date pickers with dayjs's Chinese names; loaded through LazyDatePicker. */
import { DatePicker } from 'antd';
import './dayjs-locale';

export { DatePicker };
export const RangePicker = DatePicker.RangePicker;
