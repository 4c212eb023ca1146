import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BATTLEFIELD_COLUMNS, BATTLEFIELD_ROWS, type BattlefieldCard, type BattlefieldSketch, type PlacedCard,
} from '../engine/views/battlefieldSketch.js';
import { encodePng } from './encodePng.js';
import { ensureFonts, font } from './fonts.js';
import { drawCardArt } from './cardArt.js';
import { INK } from './palette.js';
import type { Rect } from './layout.js';

/**
 * The terrain reconnaissance as a picture: the table seen from the near baseline, split into a
 * 3 x 3 grid, each placed card drawn in its cell and turned to its orientation.
 * @see 001 Terrain Reconnaissance
 */
type Ctx = SKRSContext2D;

const BATTLEFIELD_SIZE = { width: 960, height: 720 } as const;
const TITLE_H = 52;
const EDGE_H = 30;
const PAD = 16;

const CARD_NAMES: Readonly<Record<BattlefieldCard, string>> = {
  hill: 'Hill',
  woods: 'Woods',
  marsh: 'Marsh',
  river: 'River',
  stream: 'Stream',
  pond: 'Pond',
  gully: 'Gully',
  roughGround: 'Rough ground',
  blank: 'Open ground',
};

/** Quarter turns (0-3) for an orientation in degrees. */
export function quarterTurns(orientation: number): number {
  return (((Math.round(orientation / 90) % 4) + 4) % 4);
}

/** The rectangle of each grid cell (rows far to near from the top, columns left to right). */
export function battlefieldCells(width: number, height: number): Map<string, Rect> {
  const top = TITLE_H + EDGE_H;
  const gridW = width - 2 * PAD;
  const gridH = height - top - EDGE_H - PAD;
  const cw = gridW / 3;
  const ch = gridH / 3;
  const out = new Map<string, Rect>();
  BATTLEFIELD_ROWS.forEach((row, ri) => {
    BATTLEFIELD_COLUMNS.forEach((col, ci) => {
      out.set(`${row}:${col}`, { x: PAD + ci * cw, y: top + ri * ch, w: cw, h: ch });
    });
  });
  return out;
}

/** A caption fitted to a width: its font size and lines (never squeezed; wrapped, then cut with an ellipsis). */
export interface FittedCaption {
  readonly px: number;
  readonly lines: readonly string[];
}

const CAPTION_SIZES = [13, 12, 11] as const;
const CAPTION_MAX_LINES = 3;

/**
 * Fits a caption's parts (the card, who placed it) into `maxW` px: on one line at 13 px when it
 * fits, else each part on its own line, words wrapped, at the largest size that needs at most
 * three lines; what still does not fit is cut with an ellipsis. Text is never squeezed.
 */
export function fitCaption(parts: readonly string[], maxW: number, measure: (text: string, px: number) => number): FittedCaption {
  const wrap = (text: string, px: number): string[] => {
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && measure(next, px) > maxW) {
        out.push(line);
        line = word;
      } else line = next;
    }
    if (line) out.push(line);
    return out;
  };
  const cut = (text: string, px: number): string => {
    if (measure(text, px) <= maxW) return text;
    let t = text;
    while (t.length > 1 && measure(`${t}\u2026`, px) > maxW) t = t.slice(0, -1);
    return `${t.trimEnd()}\u2026`;
  };
  const one = parts.join(' \u00b7 ');
  if (measure(one, CAPTION_SIZES[0]) <= maxW) return { px: CAPTION_SIZES[0], lines: [one] };
  for (const px of CAPTION_SIZES) {
    const lines = parts.flatMap((p) => wrap(p, px));
    if (lines.length <= CAPTION_MAX_LINES && lines.every((l) => measure(l, px) <= maxW)) return { px, lines };
  }
  // Still too long at the smallest size: each part keeps its words in order, the last line of
  // the caption takes what is left and ends with an ellipsis.
  const px = 11;
  const lines = parts.flatMap((p) => wrap(p, px));
  const kept = lines.slice(0, CAPTION_MAX_LINES - 1);
  const rest = lines.slice(CAPTION_MAX_LINES - 1).join(' ');
  return { px, lines: [...kept, ...(rest ? [rest] : [])].map((l) => cut(l, px)) };
}

function drawCard(ctx: Ctx, slot: Rect, card: PlacedCard): void {
  const turns = quarterTurns(card.orientation);
  const parts = [`${CARD_NAMES[card.card]}${turns === 0 ? '' : ` (${turns * 90}\u00b0)`}`, ...(card.placedBy ? [card.placedBy] : [])];
  const caption = fitCaption(parts, slot.w - 8, (text, px) => {
    ctx.font = font(px, 'sans', { weight: 600 });
    return ctx.measureText(text).width;
  });
  const lineH = caption.px + 2;
  const captionH = Math.max(18, caption.lines.length * lineH + 4);
  const area = { x: slot.x + 6, y: slot.y + 6, w: slot.w - 12, h: slot.h - 12 - captionH };
  // the card keeps a 5:3 shape; turned a quarter, its long side runs up the table
  const upright = turns % 2 === 1;
  const ratio = 5 / 3;
  let w = Math.min(area.w, area.h * (upright ? 1 / ratio : ratio));
  let h = upright ? w * ratio : w / ratio;
  if (h > area.h) {
    h = area.h;
    w = upright ? h / ratio : h * ratio;
  }
  const cx = area.x + area.w / 2;
  const cy = area.y + area.h / 2;
  ctx.save();
  ctx.fillStyle = card.card === 'blank' ? 'rgba(255, 255, 255, 0.35)' : 'rgba(255, 253, 244, 0.75)';
  ctx.strokeStyle = '#9a8a68';
  ctx.lineWidth = 1.2;
  if (card.card === 'blank') ctx.setLineDash([5, 4]);
  ctx.beginPath();
  ctx.rect(cx - w / 2, cy - h / 2, w, h);
  ctx.fill();
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.rect(cx - w / 2, cy - h / 2, w, h);
  ctx.clip();
  ctx.translate(cx, cy);
  ctx.rotate((turns * Math.PI) / 2);
  // in the card's own frame the long side is along x
  const lw = upright ? h : w;
  const lh = upright ? w : h;
  drawCardArt(ctx, card.card, lw - 8, lh - 8);
  ctx.restore();
  ctx.fillStyle = INK.label;
  ctx.font = font(caption.px, 'sans', { weight: 600 });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const top = slot.y + slot.h - captionH - 4 + 2;
  caption.lines.forEach((line, i) => ctx.fillText(line, slot.x + slot.w / 2, top + lineH * (i + 0.5) + 2));
}

/** The battlefield sketch before encoding. */
export function renderBattlefieldCanvas(sketch: BattlefieldSketch): Canvas {
  ensureFonts();
  const { width, height } = BATTLEFIELD_SIZE;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#e3e7c4';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = INK.titleBand;
  ctx.fillRect(0, 0, width, TITLE_H);
  ctx.fillStyle = INK.titleText;
  ctx.font = font(24, 'serif', { weight: 700 });
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(sketch.title, PAD + 2, TITLE_H / 2, width - 2 * PAD);
  const cells = battlefieldCells(width, height);
  ctx.fillStyle = INK.label;
  ctx.font = font(14, 'sans', { weight: 600 });
  ctx.textAlign = 'center';
  ctx.fillText(`Far edge${sketch.farSide ? `: ${sketch.farSide}` : ''}`, width / 2, TITLE_H + EDGE_H / 2);
  ctx.fillText(`Near edge${sketch.nearSide ? `: ${sketch.nearSide}` : ''}`, width / 2, height - PAD - EDGE_H / 2 + 4);
  for (const [key, r] of cells) {
    ctx.strokeStyle = 'rgba(90, 80, 50, 0.45)';
    ctx.lineWidth = 1;
    ctx.setLineDash([6, 5]);
    ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w, r.h);
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(60, 50, 30, 0.45)';
    ctx.font = font(11, 'sans');
    ctx.textAlign = 'left';
    ctx.fillText(key.replace(':', ' '), r.x + 6, r.y + 10);
    const here = sketch.cards.filter((c) => `${c.row}:${c.column}` === key);
    here.forEach((c, i) => {
      const slotW = r.w / here.length;
      drawCard(ctx, { x: r.x + i * slotW, y: r.y + 12, w: slotW, h: r.h - 12 }, c);
    });
  }
  ctx.strokeStyle = '#6b5a3a';
  ctx.lineWidth = 2;
  const first = cells.get('far:left');
  const last = cells.get('near:right');
  if (first && last) ctx.strokeRect(first.x, first.y, last.x + last.w - first.x, last.y + last.h - first.y);
  return canvas;
}

/** The terrain reconnaissance sketch as a PNG, drawn and encoded in this thread (render threads and the fallback). */
export async function renderBattlefieldHere(sketch: BattlefieldSketch): Promise<Buffer> {
  return encodePng(renderBattlefieldCanvas(sketch));
}
