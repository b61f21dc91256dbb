import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

export interface ChartBand {
  from: number;
  to: number;
  label: string;
}

/**
 * A small line chart over time (uPlot, in the analytics bundle only). `x` holds seconds since
 * the epoch. Bands (a product's time on screen) are shaded behind the lines, labelled at their
 * top. The chart is drawn for the eye only (aria-hidden): every page that shows one also shows
 * its numbers in a table.
 */
export function TimeChart({
  x,
  series,
  bands = [],
  height = 220,
  time = true,
  yFormat,
  xRange,
  yRange,
  xLabel,
  xIncrs,
  xSplits,
  xFormat,
}: {
  x: number[];
  series: ChartSeries[];
  bands?: ChartBand[];
  height?: number;
  /** false: x is a plain number (minutes), not a time. */
  time?: boolean;
  yFormat?: (value: number) => string;
  /** The x axis's span; by default the data's (a single point gets a span around it). */
  xRange?: [number, number];
  /** The y axis's span; by default from 0 to the data's top. */
  yRange?: [number, number];
  /** The legend's name for x. */
  xLabel?: string;
  /** The steps the x axis may tick at (in x's units); uPlot's own by default. */
  xIncrs?: number[];
  /** The x axis's ticks themselves, given the plot's width in CSS pixels (overrides xIncrs). */
  xSplits?: (widthPx: number) => number[];
  /** The x axis's tick labels. */
  xFormat?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const drawBands = (chart: uPlot) => {
      const { ctx } = chart;
      const { top, height: plotHeight } = chart.bbox;
      ctx.save();
      ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
      bands.forEach((band, index) => {
        const left = chart.valToPos(band.from, 'x', true);
        const right = chart.valToPos(band.to, 'x', true);
        ctx.fillStyle = index % 2 === 0 ? 'rgba(41, 50, 61, 0.08)' : 'rgba(41, 50, 61, 0.14)';
        ctx.fillRect(left, top, Math.max(1, right - left), plotHeight);
        ctx.fillStyle = '#3d4754';
        ctx.fillText(
          band.label.slice(0, 24),
          left + 4,
          top + 14 * devicePixelRatio,
          Math.max(0, right - left - 6),
        );
      });
      ctx.restore();
    };
    const options: Options = {
      width: Math.max(280, element.clientWidth),
      height,
      scales: {
        x: { time, ...(xRange ? { range: xRange } : {}) },
        y: { range: (_chart, _min, max) => yRange ?? [0, Math.max(1, Math.ceil(max * 1.1))] },
      },
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      axes: [
        {
          ...(xIncrs ? { incrs: xIncrs } : {}),
          ...(xSplits ? { splits: (chart: uPlot) => xSplits(chart.bbox.width / devicePixelRatio) } : {}),
          ...(xFormat
            ? { values: (_chart: uPlot, ticks: number[]) => ticks.map((tick) => xFormat(tick)) }
            : {}),
        },
        { values: yFormat ? (_chart, ticks) => ticks.map((tick) => yFormat(tick)) : undefined, size: 56 },
      ],
      series: [
        xLabel ? { label: xLabel } : {},
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 2,
          // A lone point draws no line: show the points while there are few.
          points: { show: x.length <= 3 },
        })),
      ],
      hooks: { drawClear: [drawBands] },
    };
    const data = [x, ...series.map((line) => line.values)] as AlignedData;
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, element.clientWidth), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [x, series, bands, height, time, yFormat, xRange, yRange, xLabel, xIncrs, xSplits, xFormat]);

  return <div className="analytics-chart" ref={box} aria-hidden="true" />;
}
