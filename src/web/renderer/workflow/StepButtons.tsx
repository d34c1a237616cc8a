/**
 * The steps the caller may take on a record now, as buttons (approvals first, then returns and
 * refusals); each opens its dialog. Shown in the record's detail.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Spin } from 'antd';
import { useState } from 'react';
import type { ModuleSchema } from '../../../shared/module-schema/types';
import type { ModuleRecord } from '../api';
import { TransitionDialog } from './TransitionDialog';
import { workflowApi, workflowKeys, type OpenStep } from './api';

export function StepButtons({ module, schema, record }: { module: string; schema: ModuleSchema; record: ModuleRecord }) {
  const [open, setOpen] = useState<OpenStep>();
  const steps = useQuery({ queryKey: [...workflowKeys.steps(module, record.id), record.version], queryFn: () => workflowApi.steps(module, record.id) });
  if (steps.isLoading) return <Spin size="small" />;
  const list = steps.data ?? [];
  if (!list.length) return null;
  const ordered = [...list.filter((s) => s.result === 'pass'), ...list.filter((s) => s.result !== 'pass')];
  return (
    <>
      <Space wrap className="wf-steps" size={[8, 8]}>
        {ordered.map((s, i) => (
          <Button
            key={s.id}
            type={i === 0 && s.result === 'pass' ? 'primary' : 'default'}
            danger={s.result === 'reject'}
            data-step={s.id}
            onClick={() => setOpen(s)}
          >
            {s.title}
          </Button>
        ))}
      </Space>
      {open && <TransitionDialog module={module} schema={schema} record={record} step={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}
