/**
 * The web page's keys, set by the web transport when it runs: where it is reached, the secret its
 * links and cookies are signed with, how long a `/web` link lasts, and the links already used
 * (a link logs in once; the set forgets a link when it would have expired anyway). Its own file,
 * importing nothing, so that the App can hold it without an import cycle.
 */
export interface WebAccess {
  readonly publicUrl: string;
  readonly secret: Buffer;
  readonly linkTtlMs: number;
  readonly used: Map<string, number>;
}
