import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getDb } from '@/db/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/app/_server/leaderboard';
import { CalibrationPanel } from '@/app/_components/calibration-panel';

export const metadata: Metadata = { title: 'Calibration' };

/** Calibration endpoints over the last 72 h: configured vs measured speed and TTFT. */
export default async function CalibrationPage() {
  await connection();
  const answer = await getLeaderboardAnswer(getDb(), leaderboardQuerySchema.parse({ model: 'tokenpace-reference' }));
  return (
    <>
      <h1>Calibration</h1>
      <p>Tokenpace runs a reference server that streams tokens at a known rate and TTFT. It is scheduled and probed exactly like a provider endpoint; the difference between configured and measured figures is the measurement error of the whole pipeline (scheduler, network stack, parser, clock).</p>
      <CalibrationPanel answer={answer} />
    </>
  );
}
