import { useEffect, useState } from 'react';
import { useSchool } from '../stores/settings';
import { useSysConfig } from '../stores/sysconfig';

/** Sanitised footer HTML: markup and links stay, scripts, handlers and javascript: URLs go. DOMPurify loads on demand. */
export async function sanitizeFootHtml(html: string): Promise<string> {
  const { default: DOMPurify } = await import('dompurify');
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

/** The footer (spec §2): the school's footer text and filing number, then `footHtml` from system configuration. */
export function AppFooter() {
  const school = useSchool();
  const footHtml = useSysConfig((s) => s.map.footHtml);
  const [safe, setSafe] = useState('');
  useEffect(() => {
    let current = true;
    if (footHtml) void sanitizeFootHtml(footHtml).then((html) => current && setSafe(html));
    else setSafe('');
    return () => {
      current = false;
    };
  }, [footHtml]);
  return (
    <footer className="app-footer">
      <span className="footer-school">{school.footerTxt}</span>
      {school.caseNumber && (
        <a className="footer-case" href="https://beian.miit.gov.cn" target="_blank" rel="noreferrer">
          {school.caseNumber}
        </a>
      )}
      {safe && <div className="foot-html" dangerouslySetInnerHTML={{ __html: safe }} />}
    </footer>
  );
}
