import { useEffect, useRef } from 'react';
import { useSchool } from '../stores/settings';
import { useSysConfig } from '../stores/sysconfig';

type WithSetHtml = Element & { setHTML?: (html: string, options?: { sanitizer?: { removeElements?: string[] } }) => void };

/**
 * Puts sanitised HTML into `el`: markup, links and images stay; scripts, frames, event handlers and
 * javascript: URLs go, and so do <style> elements (they would restyle the whole page). Uses the
 * browser's own HTML sanitizer (Element.setHTML) where there is one, so nothing is downloaded, and
 * DOMPurify, loaded on demand, elsewhere.
 */
export async function setSanitizedHtml(el: Element, html: string, stillWanted: () => boolean = () => true): Promise<void> {
  const target = el as WithSetHtml;
  if (typeof target.setHTML === 'function') {
    // The safe setHTML removes everything script-like whatever the configuration says.
    target.setHTML(html, { sanitizer: { removeElements: ['style'] } });
    return;
  }
  const { default: DOMPurify } = await import('dompurify');
  if (stillWanted()) el.innerHTML = DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style'] });
}

/** The footer (spec §2): the school's footer text and filing number, then `footHtml` from system configuration. */
export function AppFooter() {
  const school = useSchool();
  const footHtml = useSysConfig((s) => s.map.footHtml);
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    let live = true;
    el.replaceChildren();
    if (footHtml) void setSanitizedHtml(el, footHtml, () => live);
    return () => {
      live = false;
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
      <div className="foot-html" ref={holder} hidden={!footHtml} />
    </footer>
  );
}
