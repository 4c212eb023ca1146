import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { publicMapView } from '../src/engine/views/index.js';
import { encodePng } from '../src/render/encodePng.js';
import { renderMapCanvas, snapshotLayout } from '../src/render/renderMap.js';
import { buildStaticLayer } from '../src/render/staticLayer.js';
import { BAND_ROWS, encodeBands, idatData, layerBands } from './bandedPng.js';
import { loadCampaign, p90, timedCpu } from './render.js';
import { line, median } from './stats.js';

/**
 * `npm run bench -- --bands`: the banded PNG writer of bench/bandedPng.ts (the static layer's
 * unchanged bands reused, the others compressed with node's zlib on libuv's pool) against the
 * bot's encoder (`encodePng`: sharp, zlib-ng), on the posted Valormr snapshot, alternated run by
 * run, wall and CPU (this process, every thread). First checks that the banded file decodes (sharp,
 * and node's inflate of its joined IDAT data) to exactly the snapshot's pixels. Keys:
 * bandsEncodeMs / bandsEncodeCpuMs (the layer's bands already kept), bandsColdCpuMs (no layer: every
 * band compressed), sharpEncodeMs / sharpEncodeCpuMs, bandsChangedPct (bands the overlay changed),
 * bandsBytes / sharpBytes. `--band-rows N`: bands of N rows (default BAND_ROWS).
 */
const RUNS = 15;

export async function benchBands(rows = BAND_ROWS): Promise<Record<string, number>> {
  const loaded = loadCampaign();
  if (!loaded) throw new Error('assets/scenarios/valormr.json is missing or invalid');
  const { map, state } = loaded;
  const posted = { title: { campaign: state.name, time: 'Day 1, morning', weather: 'Clear, no wind' }, cacheKey: 'bench-valormr', hexIds: 'subset' as const };
  const drawn = renderMapCanvas(map, publicMapView(state), posted);
  const { width, height } = drawn;
  const layer = buildStaticLayer(map, snapshotLayout(map, posted), { hexIds: 'subset', kind: 'public', scale: 1 });
  const bands = layerBands(layer.canvas.data(), width, height, rows);
  const rgba = drawn.data();

  // exact, by two decoders
  const banded = await encodeBands(rgba, width, height, bands);
  const rgb = await sharp(rgba, { raw: { width, height, channels: 4 } }).removeAlpha().raw().toBuffer();
  const decoded = await sharp(banded).raw().toBuffer();
  const inflated = inflateSync(idatData(banded));
  const stride = width * 3 + 1;
  const unfiltered = Buffer.concat(Array.from({ length: height }, (_, y) => inflated.subarray(y * stride + 1, (y + 1) * stride)));
  if (!decoded.equals(rgb) || !unfiltered.equals(rgb)) throw new Error('bench: the banded PNG does not decode to the snapshot\'s pixels');
  const changed = bands.bands.filter((b) => b === undefined).length;

  const sharpRuns: { ms: number; cpuMs: number }[] = [];
  const warmRuns: { ms: number; cpuMs: number }[] = [];
  const coldRuns: { ms: number; cpuMs: number }[] = [];
  let sharpBytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const s = await timedCpu(async () => { sharpBytes = (await encodePng(drawn, { opaque: true })).length; });
    const w = await timedCpu(() => encodeBands(drawn.data(), width, height, bands));
    const c = await timedCpu(() => encodeBands(drawn.data(), width, height));
    // the first three warm the code
    if (i < 3) continue;
    sharpRuns.push(s);
    warmRuns.push(w);
    coldRuns.push(c);
  }
  const m = (runs: { ms: number; cpuMs: number }[], k: 'ms' | 'cpuMs'): number => median(runs.map((r) => r[k]));
  const f = (x: number): string => `${x.toFixed(1)} ms`;
  line(`banded PNG vs the bot's encoder (Valormr ${width}x${height}, ${bands.bands.length} bands of ${bands.rows} rows, ${changed} changed by the overlay; ${RUNS} runs each, alternated)`);
  for (const [label, runs] of [['sharp (encodePng)', sharpRuns], ['banded, layer bands kept', warmRuns], ['banded, nothing kept', coldRuns]] as const) {
    line(`  ${label.padEnd(26)} wall median ${f(m(runs, 'ms')).padStart(9)} p90 ${f(p90(runs.map((r) => r.ms))).padStart(9)}   CPU median ${f(m(runs, 'cpuMs')).padStart(9)} p90 ${f(p90(runs.map((r) => r.cpuMs))).padStart(9)}`);
  }
  line(`  bytes: banded ${banded.length}, sharp ${sharpBytes}`);
  return {
    bandsEncodeMs: m(warmRuns, 'ms'), bandsEncodeCpuMs: m(warmRuns, 'cpuMs'), bandsColdCpuMs: m(coldRuns, 'cpuMs'),
    sharpEncodeMs: m(sharpRuns, 'ms'), sharpEncodeCpuMs: m(sharpRuns, 'cpuMs'),
    bandsChangedPct: Math.round((changed / bands.bands.length) * 1000) / 10, bandsBytes: banded.length, sharpBytes,
  };
}
