import PendingPage from '../pending/PendingPage';

/** Party-school routes (/pschool...): placeholder until the party-school pages land. */
export default function PschoolPage({ title }: { title?: string }) {
  return <PendingPage title={title ?? '党校'} />;
}
