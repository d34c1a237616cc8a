import { Tabs, type TabsProps } from 'antd';
import './pschool.css';

/** The administration pages' tabs: the module's own page first, the party school's tools beside it. */
export function PschoolAdminTabs({ items }: { items: NonNullable<TabsProps['items']> }) {
  return <Tabs className="ps-admin-tabs" destroyOnHidden={false} items={items} tabBarStyle={{ padding: '0 16px', marginBottom: 0 }} />;
}
