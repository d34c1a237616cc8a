import { ConfigProvider, message, Modal, notification } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { FeedbackApi } from './feedback';
import { ThemedConfigProvider } from '../layout/ThemedConfigProvider';

// Static messages render outside the React tree: give them the app's theme colour and Chinese texts.
ConfigProvider.config({ holderRender: (children) => <ThemedConfigProvider locale={zhCN}>{children}</ThemedConfigProvider> });

/** antd's static message/notification/modal, for pages outside the signed-in shell (see feedback.ts). */
export const staticFeedback = { message, notification, modal: Modal } as unknown as FeedbackApi;
