/** The frame of the video and document pages: the node's title, course, hours and neighbours. */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { clock, nodeLink } from './PschoolNav';
import { pschoolApi, type StudyNode } from './api';

export function NodeFrame({ node, children }: { node: StudyNode; children: ReactNode }) {
  return (
    <Card
      title={node.title}
      extra={<Link to={`/pschool?course=${node.courseId}`}><ArrowLeftOutlined /> {node.courseTitle}</Link>}
      actions={[
        node.prev ? <Link key="prev" to={nodeLink(node.prev)}>上一节</Link> : <span key="prev" className="ps-muted">已是第一节</span>,
        node.next ? <Link key="next" to={nodeLink(node.next)}>下一节</Link> : <span key="next" className="ps-muted">已是最后一节</span>,
      ]}
    >
      <div className="ps-muted" style={{ marginBottom: 8 }}>本节 {node.hours} 学时{node.kind === 'doc' ? `，至少阅读 ${clock(node.length)}` : ''}</div>
      {children}
    </Card>
  );
}

export function useStudyNode() {
  const [search] = useSearchParams();
  const nodeId = Number(search.get('nodeId'));
  const node = useQuery({ queryKey: ['pschool', 'node', nodeId], queryFn: () => pschoolApi.node(nodeId), enabled: nodeId > 0, gcTime: 0 });
  return { nodeId, node };
}

