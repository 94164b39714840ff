import type { ReactNode } from 'react';
import { changeAnnotations, chartSeries, type EndpointSeries } from './history-series';
import { HistoryTables } from './history-table';
import { TimeSeriesChart } from './time-series-chart';

/**
 * Daily median output speed (tokens/s) of several endpoints: the chart with P25–P75 bands and
 * change-point marks, a legend naming each series in its colour (`legendLabel`, default the
 * endpoint's slug) and the same figures as tables (HistoryTables). `id` names the chart and the
 * tables (data-chart / data-table); `height` in px (the chart's default when absent).
 */
export function DailyHistory({
  id,
  title,
  series,
  height,
  legendLabel = (s) => s.endpointSlug,
}: {
  id: string;
  title: string;
  series: EndpointSeries[];
  height?: number;
  legendLabel?: (s: EndpointSeries) => ReactNode;
}) {
  return (
    <>
      <TimeSeriesChart
        id={id}
        granularity="day"
        unit="tokens/s"
        {...(height === undefined ? {} : { height })}
        title={title}
        series={chartSeries(series)}
        annotations={changeAnnotations(series)}
      />
      <ul className="chart-legend" aria-label="Series">
        {series.map((s) => (
          <li key={s.endpointId} style={{ listStyle: 'none' }}>
            <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
            {legendLabel(s)}
          </li>
        ))}
      </ul>
      <HistoryTables series={series} granularity="day" id={id} />
    </>
  );
}
