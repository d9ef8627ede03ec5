// The audit report's charts: each balance over simulated time (or log position when time stood still), total and
// available as stepped lines on one amount scale, drawn by uPlot from the series the report embeds as JSON.
import "uplot/dist/uPlot.min.css"
import uPlot from "uplot"

/** One chart's data, as `src/audit/html.ts` writes it into `<script type="application/json" class="series">`. */
interface ChartData {
  readonly unit: string
  /** true: x is UNIX seconds of simulated time; false: x is the log position. */
  readonly byTime: boolean
  readonly x: ReadonlyArray<number>
  readonly total: ReadonlyArray<number>
  readonly available: ReadonlyArray<number>
}

const WIDTH = 640
const HEIGHT = 200

const draw = (holder: HTMLElement, d: ChartData) => {
  const stepped = uPlot.paths.stepped!({ align: 1 })
  const plot = new uPlot(
    {
      width: Math.min(WIDTH, Math.max(280, holder.clientWidth || WIDTH)),
      height: HEIGHT,
      scales: { x: { time: d.byTime } },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
      series: [
        { label: d.byTime ? "time" : "position" },
        { label: `total (${d.unit})`, stroke: "#0969da", width: 2, paths: stepped, points: { size: 5 } },
        { label: `available (${d.unit})`, stroke: "#1a7f37", width: 1.5, dash: [5, 3], paths: stepped, points: { size: 4 } },
      ],
      axes: [
        { label: d.byTime ? "simulated time (UTC)" : "log position (the changes share one simulated time)" },
        { label: `amount (${d.unit})`, size: 70 },
      ],
      cursor: { drag: { x: false, y: false } },
    },
    [[...d.x], [...d.total], [...d.available]],
    holder,
  )
  holder.dataset.drawn = String(plot.data[0]!.length)
}

const holders = document.querySelectorAll<HTMLElement>("[data-chart]")
for (const holder of holders) {
  const source = holder.querySelector("script.series")
  if (source?.textContent == null) continue
  draw(holder, JSON.parse(source.textContent) as ChartData)
}
