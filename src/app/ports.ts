/** The app's ports: what it needs from the outside world, injected by main or by tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A clock that only moves when told (console `!now`, tests). */
export class ManualClock implements Clock {
  private t: Date;

  constructor(start: Date) {
    this.t = new Date(start.getTime());
  }

  now(): Date {
    return new Date(this.t.getTime());
  }

  set(to: Date): void {
    this.t = new Date(to.getTime());
  }

  advance(ms: number): void {
    this.t = new Date(this.t.getTime() + ms);
  }
}
