/**
 * The frame of the video and document pages: the node's title, course, hours and neighbours, with the
 * learner's progress on the line above the content on both pages (issue 33.13).
 */
import { ArrowLeftOutlined, CheckCircleFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Progress, Skeleton, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PschoolNav, clock, nodeLink } from './PschoolNav';
import { pschoolApi, type StudyNode } from './api';

export function NodeFrame({ node, status, children }: { node: StudyNode; status?: ReactNode; children: ReactNode }) {
  return (
    <Card
      className="ps-node-frame"
      title={node.title}
      extra={<Link to={`/pschool?course=${node.courseId}`}><ArrowLeftOutlined /> {node.courseTitle}</Link>}
      actions={[
        node.prev ? <Link key="prev" to={nodeLink(node.prev)}>上一节</Link> : <span key="prev" className="ps-muted">已是第一节</span>,
        node.next ? <Link key="next" to={nodeLink(node.next)}>下一节</Link> : <span key="next" className="ps-muted">已是最后一节</span>,
      ]}
    >
      <div className="ps-study-bar">
        <span className="ps-muted">本节 {node.hours} 学时{node.kind === 'doc' ? `，至少阅读 ${clock(node.length)}` : ''}</span>
        {status}
      </div>
      {children}
    </Card>
  );
}

/** The learner's progress on a node: a tag (done or under way), what the text says, and a bar. */
export function StudyStatus({ testId, completed, going, text, percent }: { testId: string; completed: boolean; going: string; text: string; percent: number }) {
  return (
    <span className="ps-study-status">
      <span data-testid={testId}>
        {completed ? <Tag icon={<CheckCircleFilled />} color="success">已完成</Tag> : <Tag color="processing">{going}</Tag>}
        <span className="ps-muted">{text}</span>
      </span>
      <Progress className="ps-study-progress" percent={Math.min(100, Math.max(0, Math.round(percent)))} size="small" status={completed ? 'success' : 'active'} />
    </span>
  );
}

const KIND_WORDS = {
  video: { noun: '视频', pick: '请从学习中心选择要观看的视频', other: '这一节是文档', go: '去阅读' },
  doc: { noun: '文档', pick: '请从学习中心选择要阅读的文档', other: '这一节是视频', go: '去观看' },
} as const;

/**
 * The page of one study node of a kind (the video page, the document page): the node of `?nodeId=`, or what to
 * do when there is none, it is gone, or it is of the other kind; `render` shows a node of this kind.
 */
export function StudyNodePage({ kind, render }: { kind: 'video' | 'doc'; render: (node: StudyNode) => ReactNode }) {
  const { nodeId, node } = useStudyNode();
  const words = KIND_WORDS[kind];
  return (
    <div className="page-container ps-page">
      <PschoolNav />
      {!nodeId ? (
        <Empty description={words.pick}><Link to="/pschool"><Button type="primary">去学习中心</Button></Link></Empty>
      ) : node.isLoading ? (
        <Skeleton active />
      ) : node.isError || !node.data ? (
        <Alert type="warning" showIcon message={`${words.noun}不存在或已下架`} />
      ) : node.data.kind !== kind ? (
        <Alert type="info" showIcon message={words.other} action={<Link to={nodeLink(node.data)}>{words.go}</Link>} />
      ) : (
        render(node.data)
      )}
    </div>
  );
}

export function useStudyNode() {
  const [search] = useSearchParams();
  const nodeId = Number(search.get('nodeId'));
  const node = useQuery({ queryKey: ['pschool', 'node', nodeId], queryFn: () => pschoolApi.node(nodeId), enabled: nodeId > 0, gcTime: 0 });
  return { nodeId, node };
}
