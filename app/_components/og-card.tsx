import type { ReactNode } from 'react';

/** Open Graph image size (the common 1.91:1 card). */
export const OG_SIZE = { width: 1200, height: 630 };

/**
 * Text safe for the bundled OG font: printable ASCII only, so satori never tries to fetch a
 * fallback font or emoji from the network (the server may be offline).
 */
export function ogText(s: string): string {
  return s
    .replace(/[–—]/g, '-')
    .replace(/·/g, '|')
    .replace(/≈/g, '~')
    .replace(/≤/g, '<=')
    .replace(/≥/g, '>=')
    .replace(/[^\x20-\x7E]/g, '');
}

/** Width of a bar's track, px (1200 − 2×64 padding − 360 label − 180 value). */
const TRACK = 532;

/** One bar of an OG card: label, value (tokens/s) and bar length as a fraction 0..1. */
export interface OgBar {
  label: string;
  value: string;
  fraction: number;
  claim?: boolean;
}

/** Everything an OG card shows (so also the key of its rendered image: app/_components/og-image-response). */
export interface OgCardProps {
  title: string;
  subtitle: string;
  bars: OgBar[];
  footer: string;
  empty?: string;
}

/**
 * The card drawn by next/og ImageResponse (satori: flexbox only, inline styles, bundled font):
 * title, subtitle, up to six bars, a footer line. Dark background so it reads well in feeds.
 */
export function OgCard({ title, subtitle, bars, footer, empty }: OgCardProps): ReactNode {
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        background: '#0f1115',
        color: '#e8eaee',
        padding: '48px 64px',
        fontSize: 28,
      }}
    >
      <div style={{ display: 'flex', fontSize: 26, color: '#7aa7ff', fontWeight: 700 }}>Tokenpace</div>
      <div style={{ display: 'flex', fontSize: 50, fontWeight: 700, marginTop: 12, lineHeight: 1.15 }}>{ogText(title)}</div>
      <div style={{ display: 'flex', fontSize: 24, color: '#a3aab6', marginTop: 10 }}>{ogText(subtitle)}</div>
      <div style={{ display: 'flex', flexDirection: 'column', marginTop: 30, flexGrow: 1 }}>
        {bars.length === 0 ? <div style={{ display: 'flex', color: '#a3aab6', fontSize: 30 }}>{ogText(empty ?? 'No measurements yet')}</div> : null}
        {bars.slice(0, 6).map((b, i) => (
          <div key={i} style={{ display: 'flex', alignItems: 'center', marginBottom: 14 }}>
            <div
              style={{
                display: 'flex',
                width: 360,
                flexShrink: 0,
                fontSize: 24,
                color: b.claim ? '#c9a0f0' : '#e8eaee',
                overflow: 'hidden',
                whiteSpace: 'nowrap',
              }}
            >
              {ogText(b.label)}
            </div>
            <div style={{ display: 'flex', width: TRACK, flexShrink: 0, height: 30, background: '#181b21', borderRadius: 4 }}>
              <div
                style={{
                  display: 'flex',
                  width: Math.round(TRACK * Math.max(0.01, Math.min(1, b.fraction))),
                  height: 30,
                  background: b.claim ? '#7a3fb0' : '#7aa7ff',
                  borderRadius: 4,
                }}
              />
            </div>
            <div
              style={{
                display: 'flex',
                width: 180,
                flexShrink: 0,
                justifyContent: 'flex-end',
                fontSize: 26,
                fontWeight: 700,
                color: b.claim ? '#c9a0f0' : '#e8eaee',
                whiteSpace: 'nowrap',
              }}
            >
              {ogText(b.value)}
            </div>
          </div>
        ))}
      </div>
      <div style={{ display: 'flex', fontSize: 20, color: '#a3aab6' }}>{ogText(footer)}</div>
    </div>
  );
}
