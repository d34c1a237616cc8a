/** 我的组织: my branch, its committee of the current term and its secretary's contact, and the committee above (GET /api/member/me/org). */
import { get } from '../../api';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

type Org = { id: number; name: string; type: string | null; secretary: string | null; deputySecretary: string | null; committee: string | null; termStart: string | null; termEnd: string | null; contactPhone: string | null; address: string | null };

function OrgCard({ org }: { org: Org }) {
  const rows: [string, string | null][] = [
    ['组织类别', org.type],
    ['书记', org.secretary],
    ['副书记', org.deputySecretary],
    ['委员', org.committee],
    ['本届任期', org.termStart ? `${org.termStart} 至 ${org.termEnd ?? ''}` : null],
    ['办公地址', org.address],
  ];
  return (
    <div className="m-card">
      <div className="m-item-title">{org.name}</div>
      {rows.filter(([, v]) => v).map(([k, v]) => <div key={k} className="m-kv"><span>{k}</span><span>{v}</span></div>)}
      {org.contactPhone && <div className="m-kv"><span>联系电话</span><a href={`tel:${org.contactPhone}`}>{org.contactPhone}</a></div>}
    </div>
  );
}

export default function OrgScreen() {
  const org = useLoad(() => get<{ member: unknown; branch?: Org | null; committee?: Org | null }>('/api/member/me/org'));
  return (
    <>
      <Section title="所在党支部" loading={org.loading} error={org.error} empty={!!org.data && !org.data.branch}>
        {org.data?.branch && <OrgCard org={org.data.branch} />}
      </Section>
      {org.data?.committee && (
        <Section title="上级党组织">
          <OrgCard org={org.data.committee} />
        </Section>
      )}
    </>
  );
}
