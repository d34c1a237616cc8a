import { Tag } from 'antd';
import { stateTitle, stateTone, type WorkflowSchema } from '../../../shared/module-schema/workflow';

const COLORS = { processing: 'processing', success: 'success', warning: 'warning', error: 'error', default: 'default' } as const;

/** A record's state as a tag: in progress (blue), done (green), sent back (orange), ended (red). */
export function StateTag({ workflow, state }: { workflow: WorkflowSchema; state: unknown }) {
  if (state === null || state === undefined) return null;
  return (
    <Tag color={COLORS[stateTone(workflow, state)]} className="wf-state" data-state={String(state)}>
      {stateTitle(workflow, state)}
    </Tag>
  );
}
