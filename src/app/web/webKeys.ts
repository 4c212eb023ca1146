/**
 * The web page's keys, set by the web transport when it runs: where it is reached, the secret its
 * links and cookies are signed with, and how long a `/web` link lasts (the links already used are
 * kept in the database, so a used link stays used across a restart). Its own file,
 * importing nothing, so that the App can hold it without an import cycle.
 */
export interface WebAccess {
  readonly publicUrl: string;
  readonly secret: Buffer;
  readonly linkTtlMs: number;
}

/** How long a `/web` link lasts: the same in every process that gives them. */
export const WEB_LINK_TTL_MS = 10 * 60_000;
