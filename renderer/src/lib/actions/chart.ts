// Svelte action that owns one Chart.js instance on a <canvas>: created on mount, updated in place
// when the config changes (no flicker, no leak), destroyed with the element.
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

// Tree-shaken registration: only the controllers the Usage screen draws.
Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

export function chart(canvas: HTMLCanvasElement, config: ChartConfiguration) {
  let instance = new Chart(canvas, config);
  return {
    update(next: ChartConfiguration) {
      if (next.type !== (instance.config as { type?: string }).type) {
        instance.destroy();
        instance = new Chart(canvas, next);
        return;
      }
      instance.data = next.data;
      if (next.options) instance.options = next.options;
      instance.update('none');
    },
    destroy() {
      instance.destroy();
    },
  };
}

/** Reads the design tokens so charts follow the light/dark theme. */
export function chartColors(): { text: string; grid: string; palette: string[] } {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string): string => css.getPropertyValue(name).trim();
  return {
    text: v('--text-2'),
    grid: v('--border'),
    palette: [v('--accent'), v('--busy'), v('--ok'), v('--warn'), v('--danger'), v('--text-3')],
  };
}
