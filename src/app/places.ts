import { echo } from '../engine/events/index.js';
import type { Hex } from '../engine/hex/index.js';
import type { MapModel } from '../engine/map/index.js';
import type { RefusalCode } from '../engine/refusalCodes.js';
import { UserError } from './errors.js';

/**
 * Places of a scenario's map by name, so `to:` and `path:` take "Valdheim" as well as 2217:
 * towns, ports, fortifications and labelled places (regions and waters too: their label's hex).
 * Names are matched forgiving case, accents and punctuation; a name that fits several places is
 * refused with the candidates, one that fits none with the nearest names.
 */
export interface Place {
  readonly name: string;
  readonly kind: 'town' | 'port' | 'fortification' | 'place' | 'region' | 'water';
  readonly hex: Hex;
  /** The hex as its CCRR id. */
  readonly id: string;
}

/** Lower case, no accents, no punctuation, single spaces: how names are compared. */
function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

const cache = new WeakMap<MapModel, readonly Place[]>();

/** Every named place of the map, one entry per name and hex (a port that is also a town once). */
export function placesOf(map: MapModel): readonly Place[] {
  const hit = cache.get(map);
  if (hit) return hit;
  const raw: { name: string; kind: Place['kind']; hex: string }[] = [
    ...map.data.towns.map((t) => ({ name: t.name, kind: 'town' as const, hex: t.hex })),
    ...map.data.ports.map((p) => ({ name: p.name, kind: 'port' as const, hex: p.hex })),
    ...map.data.fortifications.map((f) => ({ name: f.name, kind: 'fortification' as const, hex: f.hex })),
    ...map.data.labels.map((l) => ({ name: l.text, kind: l.kind, hex: l.hex })),
  ];
  const seen = new Set<string>();
  const out: Place[] = [];
  for (const r of raw) {
    const hex = map.parse(r.hex);
    const key = `${foldName(r.name)}@${r.hex}`;
    if (!hex || seen.has(key)) continue;
    seen.add(key);
    out.push({ name: r.name, kind: r.kind, hex, id: map.format(hex) });
  }
  cache.set(map, out);
  return out;
}

/** A place as a choice or candidate reads: "Valdheim (town, 2217)". */
export function placeLabel(p: Place): string {
  return `${p.name} (${p.kind}, ${p.id})`;
}

/** The option as it would be typed: quoted when the name has a space. */
const typed = (option: string, name: string): string => `\`${option}:${/\s/.test(name) ? `"${name}"` : name}\``;

/** Edit distance, for the nearest names of an unknown one. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** Sites first (towns, ports, fortifications), then place labels, then regions and waters. */
const RANK: Readonly<Record<Place['kind'], number>> = { town: 0, port: 0, fortification: 0, place: 1, region: 2, water: 3 };

/**
 * One place per name: a name that is both a site and a label (Skullhaven's port and the label
 * beside it) means the site.
 */
function bestPerName(places: readonly Place[]): Place[] {
  const best = new Map<string, Place[]>();
  for (const p of places) {
    const key = foldName(p.name);
    const have = best.get(key);
    const rank = have?.[0] ? RANK[have[0].kind] : Infinity;
    if (RANK[p.kind] < rank) best.set(key, [p]);
    else if (RANK[p.kind] === rank) best.set(key, [...(have ?? []), p]);
  }
  return [...best.values()].flat();
}

/** Every place once by name (a site rather than the label beside it). */
export function distinctPlaces(map: MapModel): readonly Place[] {
  return bestPerName(placesOf(map));
}

/** The places a name may mean: the exact name, else those whose name (or a later word of it) starts with it. */
export function placesNamed(map: MapModel, text: string): readonly Place[] {
  const q = foldName(text);
  if (q.length === 0) return [];
  const all = placesOf(map);
  const exact = all.filter((p) => foldName(p.name) === q || foldName(p.name).replace(/^the /, '') === q);
  if (exact.length > 0) return bestPerName(exact);
  return bestPerName(all.filter((p) => {
    const name = foldName(p.name);
    return name.startsWith(q) || name.split(' ').some((_, i, words) => words.slice(i).join(' ').startsWith(q));
  }));
}

/** How hex ids look on this map, for refusals. */
function idForm(map: MapModel): string {
  return `ids like 0712: column then row, columns 01-${String(map.width).padStart(2, '0')}, rows 01-${String(map.height).padStart(2, '0')}`;
}

/**
 * A hex given as an id or a place name. Refusals (with `code`): a place name that fits several
 * places lists them with the exact form to type; an unknown one names the nearest places.
 */
export function hexOrPlace(map: MapModel, text: string | undefined, option: string, code: RefusalCode): Hex {
  const t = (text ?? '').trim();
  const h = map.parse(t);
  if (h && map.inBounds(h)) return h;
  if (/^\d{3,4}$/.test(t)) throw new UserError(code, `${option}: ${echo(t)} is not a hex of this map (${idForm(map)}).`, { option, given: t });
  const found = placesNamed(map, t);
  const hexes = new Map(found.map((p) => [p.id, p]));
  const [only, ...more] = [...hexes.values()];
  if (only && more.length === 0) return only.hex;
  if (only) {
    const list = [only, ...more].map((p) => `${placeLabel(p)}: ${typed(option, p.name)}`).join('; ');
    throw new UserError('place.ambiguous', `${option}: ${echo(t)} could be several places. Say which: ${list}.`, { option, given: t, candidates: [only, ...more].map((p) => ({ name: p.name, hex: p.id })) });
  }
  const q = foldName(t);
  const near = [...placesOf(map)]
    .map((p) => ({ p, d: distance(q, foldName(p.name)) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(q.length / 3)))
    .sort((a, b) => a.d - b.d || a.p.name.localeCompare(b.p.name))
    .slice(0, 3)
    .map((x) => `${placeLabel(x.p)}: ${typed(option, x.p.name)}`);
  const hint = near.length > 0 ? ` Did you mean ${near.join('; or ')}?` : ` Places of this map: ${placesOf(map).filter((p) => p.kind !== 'water').map((p) => p.name).slice(0, 12).join(', ')}.`;
  throw new UserError(code, `${option}: ${echo(t)} is neither a hex of this map (${idForm(map)}) nor a place on it.${hint}`, { option, given: t });
}

/**
 * A path of hex ids and place names in order, separated by spaces, commas or arrows: "0712 0713
 * Valdheim". A name of several words is read whole ("East Port"); commas may separate them too.
 */
export function pathOfPlaces(map: MapModel, text: string, option: string, code: RefusalCode): Hex[] {
  const parts = text.split(/[,;>]+/).flatMap((part) => wordsAsPlaces(map, part));
  if (parts.length === 0) throw new UserError(code, `${option} takes hexes (or place names) in order, e.g. \`${option}:"0712 0713 0813"\`.`);
  return parts.map((p) => hexOrPlace(map, p, option, code));
}

/** Space-separated words, joining consecutive words that make a place name. */
function wordsAsPlaces(map: MapModel, text: string): string[] {
  const words = text.split(/[\s-]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    let taken = 1;
    for (let n = Math.min(4, words.length - i); n > 1; n--) {
      const joined = words.slice(i, i + n).join(' ');
      if (placesOf(map).some((p) => foldName(p.name) === foldName(joined))) {
        taken = n;
        break;
      }
    }
    out.push(words.slice(i, i + taken).join(' '));
    i += taken;
  }
  return out;
}
