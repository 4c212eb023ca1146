/**
 * Where static layers are kept on disk (layerFile.ts): a directory beside the database, set once
 * by the app (and handed to each render thread). Unset, layers live in memory only. Apart from
 * layerFile.ts so that setting it does not load the canvas.
 */
let dir: string | undefined;

export function setLayerCacheDir(path: string | undefined): void {
  dir = path;
}

export function layerCacheDir(): string | undefined {
  return dir;
}
