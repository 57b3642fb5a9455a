import { useId } from "preact/hooks"
import { formatCount, formatMoney } from "../../text/Formats.js"
import { type DayUsage, scaleTop } from "./UsageSeries.js"

// The drawing's size in its own units; it is scaled to the width the page gives it (CSS).
const width = 720
const left = 56
const right = 8
const panelHeight = 110
const panelGap = 46
const top = 34

/** One panel of the chart: a bar per day of one figure, its scale's top on the axis. */
const Panel = ({
  days,
  value,
  label,
  formatTop,
  offsetY,
  barClass
}: {
  readonly days: ReadonlyArray<DayUsage>
  readonly value: (day: DayUsage) => number
  readonly label: string
  readonly formatTop: (value: number) => string
  readonly offsetY: number
  readonly barClass: string
}) => {
  const peak = scaleTop(Math.max(0, ...days.map(value)))
  const slot = (width - left - right) / Math.max(1, days.length)
  const base = offsetY + panelHeight
  return (
    <g>
      <text class="chart-label" x={left} y={offsetY - 8}>
        {label}
      </text>
      <text class="chart-axis" x={left - 6} y={offsetY + 4} text-anchor="end">
        {formatTop(peak)}
      </text>
      <text class="chart-axis" x={left - 6} y={base} text-anchor="end">
        0
      </text>
      <line class="chart-grid" x1={left} x2={width - right} y1={offsetY} y2={offsetY} />
      <line class="chart-baseline" x1={left} x2={width - right} y1={base} y2={base} />
      {days.map((day, index) => {
        const height = (Math.max(0, value(day)) / peak) * panelHeight
        return (
          <rect
            key={day.day}
            class={barClass}
            x={left + index * slot + slot * 0.15}
            y={base - height}
            width={slot * 0.7}
            height={height}
          />
        )
      })}
    </g>
  )
}

/**
 * Calls and cost by day, drawn as two bar charts over the month's days (an inline SVG, classes only: the
 * CSP allows no inline style). The drawing is an image named by its caption; the table beside it (`UsageTable`)
 * says every figure for screen readers and for anyone who wants the numbers.
 */
export const UsageChart = ({
  days,
  currency,
  caption
}: {
  readonly days: ReadonlyArray<DayUsage>
  readonly currency: string
  readonly caption: string
}) => {
  const titleId = useId()
  const height = top + 2 * panelHeight + panelGap + 28
  const slot = (width - left - right) / Math.max(1, days.length)
  const ticks = days.flatMap((day, index) =>
    index === 0 || index === days.length - 1 || (index + 1) % 7 === 0 ? [{ day, index }] : []
  )
  const secondY = top + panelHeight + panelGap
  return (
    <figure class="usage-chart">
      <figcaption id={titleId}>{caption}</figcaption>
      <div class="chart-frame">
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} focusable="false">
          <Panel
            days={days}
            value={(day) => day.calls}
            label="Calls"
            formatTop={formatCount}
            offsetY={top}
            barClass="chart-bar chart-bar-calls"
          />
          <Panel
            days={days}
            value={(day) => day.cost_pln}
            label={`Cost (${currency})`}
            formatTop={(value) => formatMoney(value, "").trim()}
            offsetY={secondY}
            barClass="chart-bar chart-bar-cost"
          />
          {ticks.map(({ day, index }) => (
            <text
              key={day.day}
              class="chart-axis"
              x={left + index * slot + slot / 2}
              y={height - 6}
              text-anchor="middle"
            >
              {Number(day.day.slice(8))}
            </text>
          ))}
        </svg>
      </div>
    </figure>
  )
}
