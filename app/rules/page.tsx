import type { Metadata } from 'next';
import Link from 'next/link';
import { RULE_SECTIONS, RULES_DATE, RULES_VERSION } from '@/lib/rules/publication-rules';

export const metadata: Metadata = { title: 'Rules for listed endpoints' };

/** /rules – what a listed endpoint must be, what is forbidden, what happens when a rule is broken (lib/rules). */
export default function RulesPage() {
  return (
    <>
      <h1>Rules for listed endpoints</h1>
      <p className="lead">
        Version {RULES_VERSION}, {RULES_DATE}. Every endpoint on Tokenpace, submitted or from our catalog, is held to these rules; owners confirm them when they
        submit. As JSON: <a href="/api/v1/rules">/api/v1/rules</a>. How each figure is measured: <Link href="/methodology">the methodology</Link>.
      </p>
      {RULE_SECTIONS.map((section) => (
        <section key={section.id} aria-labelledby={`rules-${section.id}`}>
          <h2 id={`rules-${section.id}`}>{section.title}</h2>
          <ul>
            {section.rules.map((rule) => (
              <li key={rule.id} id={rule.id}>
                {rule.text}
                {rule.enforcedBy ? <span className="small muted"> Checked by: {rule.enforcedBy}.</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p className="small muted">
        These rules follow MLPerf Endpoints (MLCommons rules v1.0, 2026) on disclosure and on what is forbidden, and Artificial Analysis’s principle that the
        endpoint measured is the one customers get.
      </p>
    </>
  );
}
