/**
 * Chinese week and month names for dayjs (antd's date pickers read them). Imported with the date
 * pickers (date-pickers.ts), so pages download dayjs only when they show a picker.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');
