/**
 * Runs the outbox delivery on a timer and on demand, never two runs at once: a kick during a run
 * asks for one more run right after it. Stopping waits for the run in flight.
 */
export class DeliveryLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  /** Set and cleared synchronously with the loop's last check, so a kick is never lost. */
  private busy = false;
  private pending = false;
  private stopped = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Deliver now (or right after the run in flight). */
  kick(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.pending = true;
      return;
    }
    this.busy = true;
    this.running = this.loop();
  }

  /** Resolves once no run is in flight or asked for. */
  async idle(): Promise<void> {
    while (this.busy) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.pending = false;
        try {
          await this.run();
        } catch (error) {
          this.onError(error);
        }
      } while (this.pending && !this.stopped);
    } finally {
      this.busy = false;
    }
  }
}
