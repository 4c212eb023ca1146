import type { SKRSContext2D } from '@napi-rs/canvas';
import type { MapView } from '../engine/views/index.js';
import { font, measure } from './fonts.js';
import { seenLine } from './knowledgeMarks.js';
import { hexCentre, inLayout, type MapLayout, type Rect } from './layout.js';
import { INK } from './palette.js';
import { placeLabels, type LabelRequest } from './placeLabels.js';
import { drawPaths, stepColour, stepFont } from './routes.js';
import type { StaticLayer } from './staticLayer.js';
import { blitBoxedLabel, roundRect, SPRITES_FROM } from './labelSprites.js';
import { blitToken, PixelCopies } from './tokenSprites.js';
import { tokenBox, tokenPositions, tokenRadius } from './tokens.js';

/**
 * What changes from one snapshot to the next, drawn over a copy of the static layer: the title
 * band, the sides, routes (routes.ts), couriers, tokens (tokens.ts), and every label placed
 * around them.
 */
type Ctx = SKRSContext2D;

export interface TitleText {
  readonly campaign: string;
  readonly time: string;
  readonly weather: string;
}

function tokenFontPx(s: number): number {
  return Math.max(11.5, Math.min(16, 0.46 * s));
}

function placeFontPx(s: number): number {
  return Math.max(15.5, Math.min(21, 0.56 * s));
}

function spaced(text: string): string {
  return text.toUpperCase().split('').join('\u200a');
}

/**
 * The title band's badge on a commander's view: "PRIVATE · " and whose view it is, as many of the
 * names as fit, then how many more ("PRIVATE · Ingegerd, Hadewych the Arbiter and 22 more"). The
 * referee's view of every army named all 24 commanders: the badge ran off the band, over the time.
 */
export function privateBadge(names: readonly string[], fits: (text: string) => boolean): string {
  const all = `PRIVATE${names.length > 0 ? ` \u00b7 ${names.join(', ')}` : ''}`;
  if (fits(all)) return all;
  for (let n = names.length - 1; n >= 1; n--) {
    const text = `PRIVATE \u00b7 ${names.slice(0, n).join(', ')} and ${names.length - n} more`;
    if (fits(text)) return text;
  }
  const counted = `PRIVATE \u00b7 ${names.length} armies`;
  return fits(counted) ? counted : 'PRIVATE';
}

function drawTitle(ctx: Ctx, layout: MapLayout, view: MapView, title: TitleText): void {
  const t = layout.title;
  ctx.fillStyle = INK.titleBand;
  ctx.fillRect(t.x, t.y, t.w, t.h);
  ctx.fillStyle = INK.own;
  ctx.fillRect(t.x, t.y + t.h - 3, t.w, 3);
  const mid = t.y + t.h / 2 - 1;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillStyle = INK.titleText;
  ctx.font = font(29, 'serif', { weight: 700 });
  const nameMax = t.w * 0.4;
  ctx.fillText(title.campaign, t.x + 18, mid, nameMax);
  let x = t.x + 18 + Math.min(nameMax, ctx.measureText(title.campaign).width) + 18;
  if (view.kind === 'commander') {
    // The badge keeps clear of the time and weather, drawn from the right edge (widths as drawn below).
    ctx.font = font(17, 'sans');
    const weatherW = Math.min(Math.max(60, (t.x + t.w - 18 - x) * 0.5), ctx.measureText(title.weather).width);
    ctx.font = font(23, 'serif', { weight: 600 });
    const timeW = ctx.measureText(title.time).width;
    ctx.font = font(13, 'sans', { weight: 700 });
    const room = t.x + t.w - 18 - weatherW - 26 - timeW - 24 - x;
    const text = privateBadge(view.tokens.filter((k) => k.own).map((k) => k.label), (candidate) => ctx.measureText(candidate).width + 16 <= room);
    const w = ctx.measureText(text).width + 16;
    ctx.fillStyle = '#8e2a22';
    roundRect(ctx, { x, y: mid - 11, w, h: 22 }, 4);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, x + 8, mid + 0.5);
    x += w + 12;
  }
  ctx.textAlign = 'right';
  ctx.fillStyle = INK.titleDim;
  ctx.font = font(17, 'sans');
  const weather = title.weather;
  // the time and weather share what the name (and badge) leave, weather squeezed first
  const room = t.x + t.w - 18 - x;
  const weatherMax = Math.max(60, room * 0.5);
  ctx.fillText(weather, t.x + t.w - 18, mid, weatherMax);
  const ww = Math.min(weatherMax, ctx.measureText(weather).width);
  ctx.fillStyle = INK.titleText;
  ctx.font = font(23, 'serif', { weight: 600 });
  ctx.fillText(title.time, t.x + t.w - 18 - ww - 26, mid, Math.max(60, room - ww - 26));
}

function drawSides(ctx: Ctx, layout: MapLayout, view: MapView): void {
  const seen = new Map<string, { name: string; colour: string }>();
  for (const t of view.tokens) if (!seen.has(t.sideId)) seen.set(t.sideId, { name: t.sideName, colour: t.colour });
  const r = layout.legend;
  let x = r.x + r.w - 16;
  const y = r.y + r.h - 16;
  ctx.font = font(12.5, 'sans', { weight: 600 });
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (const side of [...seen.values()].reverse()) {
    ctx.fillStyle = INK.label;
    ctx.fillText(side.name, x, y);
    x -= ctx.measureText(side.name).width + 8;
    ctx.fillStyle = side.colour;
    ctx.beginPath();
    ctx.arc(x - 6, y, 6.5, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 1.5;
    ctx.stroke();
    x -= 28;
  }
}

interface LabelDraw {
  readonly lines: readonly { text: string; font: string; colour: string }[];
  readonly kind: 'token' | 'own' | 'step' | 'place' | 'region' | 'water' | 'courier';
  readonly border?: string;
}

/** The labels a snapshot wants placed, how each is drawn once placed, and what they must keep clear of. */
interface LabelPlan {
  readonly obstacles: Rect[];
  readonly requests: LabelRequest[];
  readonly draws: Map<string, LabelDraw>;
}

/** Draws the picture's changing parts over a copy of the static layer. */
export function drawOverlay(ctx: Ctx, layer: StaticLayer, view: MapView, opts: { labels: boolean; title: TitleText }): void {
  const layout = layer.layout;
  drawTitle(ctx, layout, view, opts.title);
  drawSides(ctx, layout, view);
  const m = layout.map;
  ctx.save();
  ctx.beginPath();
  ctx.rect(m.x - 1, m.y - 1, m.w + 2, m.h + 2);
  ctx.clip();
  const plan: LabelPlan = { obstacles: [...layer.obstacles], requests: [], draws: new Map() };
  drawRoutes(ctx, layer, view, plan);
  drawCouriers(ctx, layout, view, plan);
  drawTokens(ctx, layout, view, plan);
  if (opts.labels) planPlaceLabels(ctx, layer, plan);
  drawPlacedLabels(ctx, layout, plan);
  ctx.restore();
}

/** The ordered marches (routes.ts), and their step tags to place. */
function drawRoutes(ctx: Ctx, layer: StaticLayer, view: MapView, plan: LabelPlan): void {
  const s = layer.layout.size;
  for (const r of drawPaths(ctx, layer.layout, view, plan.obstacles, layer.hexIds)) {
    plan.requests.push(r);
    const step = view.paths.find((p) => r.id.startsWith(`step:${p.armyId}:`));
    const i = Number(r.id.slice(r.id.lastIndexOf(':') + 1));
    const st = step?.steps[i];
    if (st) plan.draws.set(r.id, { kind: 'step', lines: [{ text: st.label, font: stepFont(s), colour: '#ffffff' }], border: stepColour(st.time) });
  }
}

/** The viewer's couriers: a letter beside the hex, and "courier to ..." to place. */
function drawCouriers(ctx: Ctx, layout: MapLayout, view: MapView, plan: LabelPlan): void {
  const s = layout.size;
  for (const c of view.couriers) {
    if (!inLayout(layout, c.hex)) continue;
    const p = hexCentre(layout, c.hex);
    const q = { x: p.x + 0.45 * s, y: p.y - 0.35 * s };
    const w = Math.max(12, 0.45 * s);
    const h = w * 0.66;
    ctx.fillStyle = '#fffdf5';
    ctx.strokeStyle = c.colour;
    ctx.lineWidth = 2;
    ctx.fillRect(q.x - w / 2, q.y - h / 2, w, h);
    ctx.strokeRect(q.x - w / 2, q.y - h / 2, w, h);
    ctx.beginPath();
    ctx.moveTo(q.x - w / 2, q.y - h / 2);
    ctx.lineTo(q.x, q.y + h * 0.1);
    ctx.lineTo(q.x + w / 2, q.y - h / 2);
    ctx.stroke();
    plan.obstacles.push({ x: q.x - w / 2 - 1, y: q.y - h / 2 - 1, w: w + 2, h: h + 2 });
    const f = font(Math.max(10, tokenFontPx(s) - 2), 'sans', { italic: true });
    const text = `courier to ${c.toLabel}`;
    const id = `courier:${c.id}`;
    plan.requests.push({ id, w: measure(ctx, text, f) + 8, h: tokenFontPx(s) + 3, anchor: q, gap: w / 2 + 1, style: 'point', priority: 60, required: true });
    plan.draws.set(id, { kind: 'courier', lines: [{ text, font: f, colour: INK.label }] });
  }
}

/**
 * The tokens, the viewer's own last (on top), each with its label to place: the commander's name
 * (and an own army's strength), the viewer's estimate, and how old a sighting is.
 */
function drawTokens(ctx: Ctx, layout: MapLayout, view: MapView, plan: LabelPlan): void {
  const s = layout.size;
  const positions = tokenPositions(layout, view.tokens);
  const ordered = [...view.tokens].sort((a, b) => Number(a.own ?? false) - Number(b.own ?? false));
  for (const t of ordered) {
    const p = positions.get(t.armyId);
    if (p) plan.obstacles.push(tokenBox(p, s));
  }
  const looks = new Set<string>();
  const copies = new PixelCopies(ctx);
  // The same for every token of the picture: worked out once, not 800 times.
  const fpx = tokenFontPx(s);
  const mainFont = font(fpx, 'sans', { weight: 600 });
  const estimateFont = font(fpx - 1, 'sans', { italic: true });
  const gap = tokenRadius(s) + 3;
  for (const t of ordered) {
    const p = positions.get(t.armyId);
    if (!p) continue;
    blitToken(ctx, t, p, s, looks, copies);
    const main = t.own && t.strengthPct !== undefined ? `${t.label}  ${t.strengthPct}%` : t.label;
    const lines: { text: string; font: string; colour: string }[] = [{ text: main, font: mainFont, colour: INK.label }];
    if (t.estimate) lines.push({ text: t.estimate, font: estimateFont, colour: '#5a3b1c' });
    const seen = seenLine(t, fpx);
    if (seen) lines.push(seen);
    let widest = 0;
    for (const l of lines) widest = Math.max(widest, measure(ctx, l.text, l.font));
    const id = `token:${t.armyId}`;
    plan.requests.push({ id, w: widest + 10, h: lines.length * (fpx + 3) + 4, anchor: p, gap, style: 'point', priority: t.own ? 110 : 100, required: true });
    plan.draws.set(id, { kind: t.own ? 'own' : 'token', lines, border: t.colour });
  }
  copies.userSpace();
}

/** Place, region and water names of the static layer: places must show, areas give way. */
function planPlaceLabels(ctx: Ctx, layer: StaticLayer, plan: LabelPlan): void {
  const s = layer.layout.size;
  for (const l of layer.labels) {
    const px = l.kind === 'region' ? placeFontPx(s) + 3 : l.kind === 'water' ? placeFontPx(s) : placeFontPx(s) - 1;
    const f = l.kind === 'place'
      ? font(px, 'serif', { weight: 600 })
      : font(px, 'serif', { italic: true, weight: l.kind === 'region' ? 600 : 400 });
    const text = l.kind === 'region' ? spaced(l.text) : l.text;
    plan.requests.push({
      id: l.id,
      w: measure(ctx, text, f) + 6,
      h: px + 2,
      anchor: l.anchor,
      gap: l.gap,
      style: l.kind === 'place' ? 'point' : 'area',
      priority: l.kind === 'place' ? 50 : 10,
      required: l.kind === 'place',
      ...(l.kind === 'place' ? {} : { padX: px * 1.5 }),
    });
    plan.draws.set(l.id, { kind: l.kind, lines: [{ text, font: f, colour: l.kind === 'place' ? INK.label : l.kind === 'water' ? INK.waterLabel : INK.regionLabel }] });
  }
}

/** Places every label around the obstacles, then draws them: region and water names first, so everything else reads on top. */
function drawPlacedLabels(ctx: Ctx, layout: MapLayout, plan: LabelPlan): void {
  const m = layout.map;
  const placed = placeLabels(plan.requests, plan.obstacles, { x: m.x + 2, y: m.y + 2, w: m.w - 4, h: m.h - 4 });
  // In three layers, each in placing order (a stable sort by layer, without the sort).
  const layers: { pl: (typeof placed)[number]; d: LabelDraw }[][] = [[], [], []];
  let boxed = 0;
  for (const pl of placed) {
    const d = plan.draws.get(pl.id);
    if (!d) continue;
    layers[d.kind === 'region' || d.kind === 'water' ? 0 : d.kind === 'place' ? 1 : 2]?.push({ pl, d });
    if (d.kind === 'token' || d.kind === 'own') boxed++;
  }
  const sorted = layers.flat();
  // Army labels: copied from sprites kept by the render thread when the picture has many (labelSprites.ts).
  const copies = new PixelCopies(ctx);
  for (const { pl, d } of sorted) {
    if (d.kind === 'token' || d.kind === 'own') {
      blitBoxedLabel(ctx, pl.rect, { lines: d.lines, own: d.kind === 'own', border: d.border }, boxed >= SPRITES_FROM, copies);
    } else {
      copies.userSpace();
      drawLabel(ctx, pl.rect, d);
    }
  }
  copies.userSpace();
}

function drawLabel(ctx: Ctx, r: Rect, d: LabelDraw): void {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const cx = r.x + r.w / 2;
  if (d.kind === 'step') {
    ctx.fillStyle = d.border ?? INK.path;
    roundRect(ctx, r, 3);
    ctx.fill();
    const l = d.lines[0];
    if (l) {
      ctx.font = l.font;
      ctx.fillStyle = l.colour;
      ctx.fillText(l.text, cx, r.y + r.h / 2 + 0.5);
    }
    return;
  }
  for (const l of d.lines) {
    ctx.font = l.font;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = INK.labelHalo;
    ctx.lineWidth = d.kind === 'region' ? 3 : 3.5;
    ctx.strokeText(l.text, cx, r.y + r.h / 2 + 0.5);
    ctx.fillStyle = l.colour;
    ctx.fillText(l.text, cx, r.y + r.h / 2 + 0.5);
  }
}
