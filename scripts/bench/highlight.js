// The review's spoken-word highlight against a 2-hour recording (a sine tone made by sox) and its
// transcript (about 14,500 words at the sandbox's pace; the row says how many), in the real
// renderer: `sluice serve` with its embedded sandbox, Debian's Chromium driven by Playwright. The
// page plays stretches across the two hours; a MutationObserver notes each change of the lit word
// and how far the media's clock had gone past the start of every word crossed since the last change
// (a word skipped between two frames counts with the later, larger lag). Baseline, measured in the
// same playback: the same lookup made on each `timeupdate` event, the naive way to follow a player.
/* global document, window, MutationObserver -- the functions given to page.evaluate run in the page */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { fmt, median, root } from './common.js';

/** "Transcription + speakers": paragraphs by speaker turn, as a real interview has. */
const DIARIZATION_TEMPLATE = '669fee048452492b62cfad39';
const DURATION_S = 2 * 3600;
/** Where the stretches start, as fractions of the recording, and how long each one plays. */
const STRETCHES = [0.02, 0.25, 0.5, 0.75, 0.98];
const STRETCH_MS = Number(process.env.SLUICE_BENCH_HIGHLIGHT_SECONDS ?? 15) * 1000;

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** `sluice serve` on a free port with a throw-away state dir; its address (token in the hash). */
async function serve(stateDir) {
  const child = spawn(process.execPath, [path.join(root, 'bin/sluice.js'), 'serve', '--state-dir', stateDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Two hours of media processed in a few seconds.
    env: { ...process.env, SLUICE_SANDBOX_SPEED_FACTOR: '0.001' },
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sluice serve exited with ${code}:\n${out}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** One request to the web bridge; a FormData body is sent as is. */
async function call(url, channel, body) {
  const u = new URL(url);
  const headers = { 'x-sluice-token': new URLSearchParams(u.hash.slice(1)).get('token') ?? '' };
  if (!(body instanceof FormData)) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(`api/${channel}`, u.origin + u.pathname), {
    method: 'POST',
    headers,
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  const answer = await r.json();
  if (!answer.ok) throw new Error(`${channel}: ${answer.error?.message}`);
  return answer.value;
}

/** Installed in the page once the review is open: both followers, recording lags in ms. */
function instrument(starts) {
  const el = document.querySelector('[data-testid=review] audio');
  const list = document.querySelector('[data-testid=transcript-list]');
  const at = (ms) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= ms) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const m = { on: false, lit: -1, naive: -1, dom: [], timeupdate: [], changes: 0 };
  // Every word crossed since the last change, with how far the clock is past its start now.
  const crossed = (from, to, now, into) => {
    for (let k = from + 1; k <= to; k++) into.push(now - starts[k]);
  };
  new MutationObserver(() => {
    if (!m.on) return;
    const now = el.currentTime * 1000;
    const w = Number(list.querySelector('.w.now')?.getAttribute('data-w') ?? -1);
    if (w === m.lit) return;
    // The first change of a stretch only says where it starts; a jump backwards is not playback.
    if (m.lit >= 0 && w > m.lit) {
      crossed(m.lit, w, now, m.dom);
      m.changes++;
    }
    m.lit = w;
  }).observe(list, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  el.addEventListener('timeupdate', () => {
    if (!m.on) return;
    const now = el.currentTime * 1000;
    const w = at(now);
    if (m.naive >= 0 && w > m.naive) crossed(m.naive, w, now, m.timeupdate);
    m.naive = w;
  });
  window.__highlight = m;
}

export async function benchHighlight(work, log) {
  const dir = path.join(work, 'highlight');
  const wav = path.join(dir, 'interview-2h.wav');
  mkdirSync(dir, { recursive: true });
  const made = spawnSync('sox', [
    '-n',
    '-r',
    '8000',
    '-b',
    '16',
    '-c',
    '1',
    wav,
    'synth',
    String(DURATION_S),
    'sine',
    '440',
  ]);
  if (made.status !== 0) throw new Error(`sox could not make the recording: ${made.stderr}`);
  const server = await serve(path.join(dir, 'state'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const form = new FormData();
    form.set('templateId', DIARIZATION_TEMPLATE);
    form.set('params', JSON.stringify({ speakersNumber: 2 }));
    form.set('file', new Blob([readFileSync(wav)], { type: 'audio/wav' }), 'interview-2h.wav');
    const [added] = await call(server.url, 'queue:upload', form);
    if (!added?.jobId) throw new Error(`the recording was not added: ${JSON.stringify(added)}`);
    log('highlight: waiting for the 2-hour transcript');
    for (let i = 0; ; i++) {
      const { jobs } = await call(server.url, 'queue:snapshot', {});
      const state = jobs.find((j) => j.id === added.jobId)?.state;
      if (state === 'completed') break;
      if (state === 'failed' || i > 600) throw new Error(`the recording's job is ${state}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const view = await call(server.url, 'transcript:open', { jobId: added.jobId });
    const starts = view.words.map((w) => w.start);

    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.goto(server.url);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Queue' }).click();
    await page.locator('[data-testid=job-row][data-name="interview-2h.wav"]').dblclick();
    await page.getByTestId('job-detail').getByRole('button', { name: 'Transcript' }).click();
    const audio = page.getByTestId('review').locator('audio');
    await audio.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=review] audio')?.readyState >= 1);
    await page.evaluate(instrument, starts);

    log(`highlight: playing ${STRETCHES.length} stretches of ${STRETCH_MS / 1000} s across ${starts.length} words`);
    for (const f of STRETCHES) {
      await page.evaluate(async (s) => {
        const el = document.querySelector('[data-testid=review] audio');
        el.pause();
        window.__highlight.on = false;
        el.currentTime = s;
        await new Promise((r) => el.addEventListener('seeked', r, { once: true }));
        Object.assign(window.__highlight, { on: true, lit: -1, naive: -1 });
        await el.play();
      }, f * DURATION_S);
      await page.waitForTimeout(STRETCH_MS);
    }
    const m = await page.evaluate(() => {
      document.querySelector('[data-testid=review] audio').pause();
      return window.__highlight;
    });
    if (m.dom.length < 20 || m.timeupdate.length < 20) {
      throw new Error(`too few highlight changes to measure (${m.dom.length}, ${m.timeupdate.length})`);
    }
    const med = median(m.dom);
    const p95 = percentile(m.dom, 95);
    const base = median(m.timeupdate);
    return [
      {
        name: `Highlight follows playback, 2 h (${starts.length} words)`,
        value: `${fmt(med, 0)} ms (p95 ${fmt(p95, 0)} ms)`,
        baseline: `on timeupdate: ${fmt(base, 0)} ms (p95 ${fmt(percentile(m.timeupdate, 95), 0)} ms)`,
        ratio: fmt(med / base),
        target: '< 100 ms (p95)',
        met: p95 < 100,
        note:
          `lag of the lit word behind the media clock for ${m.dom.length} words crossed ` +
          `(${m.changes} changes) in ${STRETCHES.length} stretches of ${STRETCH_MS / 1000} s across the ` +
          `recording, Chromium headless; load average ${loadavg()
            .map((l) => fmt(l, 1))
            .join(' ')}`,
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
