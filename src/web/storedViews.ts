import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { layerCacheDir } from '../render/layerCacheDir.js';

/**
 * First views kept on disk, beside the database (`<database>-layers/web/`), so that a freshly
 * started process serves a reader's first view (`first.png`) and the pyramid's size without
 * drawing anything: no render thread to start, no picture to draw. A first view is stored when
 * it is made (at a login, or the first ask for it) under a hash of its view key (who, which view
 * and day, and the hash of what is drawn: a change of the reader's view makes a new key) and of
 * the drawing code's version (a hash of the render and tile sources), so a new renderer never
 * serves an old picture. The file holds exactly the bytes a drawing makes; a file that fails its
 * check (truncated, damaged) is ignored and drawn again. At most MAX_FILES are kept (the oldest go).
 *
 * Format: `VVIEW1\n`, the full picture's width and height (4-byte big-endian each), the PNG's
 * SHA-256, the PNG.
 */
const MAGIC = Buffer.from('VVIEW1\n', 'latin1');
const HEAD = MAGIC.length + 8 + 32;
const MAX_FILES = 1000;
/** Files are counted (and the oldest removed) once every this many writes. */
const PRUNE_EVERY = 50;

export interface StoredView {
  /** The first view's PNG (first.png). */
  readonly png: Buffer;
  /** The full picture's size (the pyramid's). */
  readonly width: number;
  readonly height: number;
}

let codeVersion: string | undefined;
/** A hash of the sources that draw a view's pictures (the renderer) and cut its levels (tiles.ts, this file). */
function drawingVersion(): string {
  if (codeVersion !== undefined) return codeVersion;
  const hash = createHash('sha1');
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const render = new URL('../render/', import.meta.url);
  for (const f of readdirSync(render).filter((n) => n.endsWith(ext)).sort()) hash.update(f).update(readFileSync(new URL(f, render)));
  for (const f of ['tiles', 'storedViews']) hash.update(readFileSync(new URL(`./${f}${ext}`, import.meta.url)));
  codeVersion = hash.digest('hex').slice(0, 16);
  return codeVersion;
}

export class StoredViews {
  private writes = 0;

  /** `dir`: where the files go (default: `web/` in the static layers' directory beside the database; none for an in-memory one). */
  constructor(readonly dir: string | undefined = storedViewsDir()) {}

  private path(key: string): string | undefined {
    return this.dir === undefined ? undefined : join(this.dir, `${createHash('sha256').update(`${drawingVersion()}|${key}`).digest('hex').slice(0, 40)}.view`);
  }

  /** The first view stored under `key`, or undefined (none, or a file that fails its check). */
  read(key: string): StoredView | undefined {
    const path = this.path(key);
    if (path === undefined) return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return undefined;
    }
    if (bytes.length <= HEAD || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const png = bytes.subarray(HEAD);
    if (!createHash('sha256').update(png).digest().equals(bytes.subarray(MAGIC.length + 8, HEAD))) return undefined;
    return { png, width: bytes.readUInt32BE(MAGIC.length), height: bytes.readUInt32BE(MAGIC.length + 4) };
  }

  /** Stores a first view (written to a temporary file, then renamed). A failure only costs a later process a drawing. */
  write(key: string, view: StoredView): void {
    const path = this.path(key);
    if (path === undefined || this.dir === undefined) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const size = Buffer.alloc(8);
      size.writeUInt32BE(view.width, 0);
      size.writeUInt32BE(view.height, 4);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.concat([MAGIC, size, createHash('sha256').update(view.png).digest(), view.png]));
      renameSync(tmp, path);
      if (++this.writes % PRUNE_EVERY === 0) this.prune();
    } catch {
      // Only a cache.
    }
  }

  /** Keeps the newest MAX_FILES files. */
  private prune(): void {
    const dir = this.dir as string;
    const files = readdirSync(dir).filter((f) => f.endsWith('.view')).map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }));
    if (files.length <= MAX_FILES) return;
    files.sort((a, b) => a.t - b.t);
    for (const { f } of files.slice(0, files.length - MAX_FILES)) unlinkSync(join(dir, f));
  }
}

/** `web/` in the static layers' directory (beside the database), or undefined for an in-memory database. */
function storedViewsDir(): string | undefined {
  const layers = layerCacheDir();
  return layers === undefined ? undefined : join(layers, 'web');
}
