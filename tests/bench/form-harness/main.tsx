/**
 * The schema form of a 150-field module, alone on a page, for the keystroke benchmark (suites/form.ts):
 * the app's RecordForm with the providers the app gives it. The benchmark answers its API calls.
 */
import zhCN from 'antd/es/locale/zh_CN';
import { createRoot } from 'react-dom/client';
import { AppShell } from '../../../src/web/core/app-shell';
import { ThemedConfigProvider } from '../../../src/web/core/layout/ThemedConfigProvider';
import { RecordForm } from '../../../src/web/renderer/form/RecordForm';
import { generatedSchema } from '../../fixtures/wide-schema';
// The form's own stylesheet, as on the module pages (the grid of columns, the field spacing).
import '../../../src/web/renderer/renderer.css';

// ?n=30: a form of 30 fields (profile.ts, FIELDS=30).
const schema = generatedSchema(Number(new URLSearchParams(location.search).get('n') ?? 150));

createRoot(document.getElementById('app')!).render(
  <ThemedConfigProvider locale={zhCN}>
    <AppShell>
      <div style={{ width: 1100, padding: 24 }}>
        <RecordForm schema={schema} />
      </div>
    </AppShell>
  </ThemedConfigProvider>,
);
