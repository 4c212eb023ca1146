/** Small text helpers for the rules reference: compact tables for Discord code blocks. */

export type Cell = string | number;

/** A fixed-width table in a code block: the first column left-aligned, the others right-aligned. */
export function codeTable(header: readonly Cell[], rows: readonly (readonly Cell[])[]): string {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return ['```', ...all.map(line), '```'].join('\n');
}

/** "+1" / "−1" / "0" for modifiers. */
export function signed(n: number): string {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '0';
}

/** 0.25 → "¼", 0.5 → "½", 0.75 → "¾"; other numbers as they are. */
export function fraction(n: number): string {
  const whole = Math.trunc(n);
  const part = ({ 0.25: '¼', 0.5: '½', 0.75: '¾' } as Record<number, string>)[n - whole];
  if (part === undefined) return String(n);
  return whole === 0 ? part : `${whole}${part}`;
}

/** Groups the faces of a die by what they show: "1 fog · 2-5 nothing · 6 wind". */
export function dieFaces<T>(faces: readonly T[], label: (face: T) => string): string {
  const groups: { from: number; to: number; face: T }[] = [];
  faces.forEach((face, i) => {
    const last = groups[groups.length - 1];
    if (last && last.face === face) last.to = i + 1;
    else groups.push({ from: i + 1, to: i + 1, face });
  });
  return groups.map((g) => `${g.from === g.to ? g.from : `${g.from}-${g.to}`} ${label(g.face)}`).join(' · ');
}

/** "1 day" / "2 days" from half periods (four to a day). */
export function days(halves: number, perDay: number): string {
  const d = halves / perDay;
  return `${fraction(d)} day${d === 1 ? '' : 's'}`;
}
