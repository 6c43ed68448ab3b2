import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FileRepository } from '../infrastructure/file.repository';
import { FILE_CONTENTS, type FileContents } from './file-contents';

/** An upload still `uploading` after this long was cut off (its process died); it is removed. */
const ABANDONED_AFTER_SECONDS = 3600;
const SWEEP_EVERY_MS = 5 * 60_000;
const DISCARD_BATCH = 100;

/**
 * Removes what deleted entries leave outside their table: S3 objects whose entries are gone (their
 * keys were recorded in the deleting transaction, so a crash between the commit and the removal
 * loses nothing), and uploads a killed process never finished. Runs after each delete and every
 * five minutes; with PostgreSQL storage there is never anything to discard (chunks cascade).
 */
@Injectable()
export class FileHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FileHousekeeping');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly files: FileRepository,
    @Inject(FILE_CONTENTS) private readonly contents: FileContents,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.discardSoon({ sweepUploads: true }), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.contents.close?.();
  }

  /** Starts a pass unless one is running; failures are logged and retried by the next pass. */
  discardSoon(options: { sweepUploads?: boolean } = {}): void {
    if (this.running) return;
    this.running = this.pass(options.sweepUploads ?? false)
      .catch((error: unknown) => this.logger.warn(`file housekeeping failed, retried at the next pass: ${String(error)}`))
      .finally(() => (this.running = null));
  }

  /** One pass, awaited (tests, and the timer through discardSoon). */
  async pass(sweepUploads: boolean): Promise<void> {
    if (sweepUploads) {
      const abandoned = await this.files.deleteAbandonedUploads(ABANDONED_AFTER_SECONDS);
      for (const upload of abandoned) if (upload.storageKey) await this.files.recordDiscarded(upload.workspaceId, [upload.storageKey]);
    }
    for (;;) {
      const batch = await this.files.discardedBatch(DISCARD_BATCH);
      for (const item of batch) {
        await this.contents.discard(item.storageKey);
        await this.files.forgetDiscarded(item.workspaceId, item.storageKey);
      }
      if (batch.length < DISCARD_BATCH) return;
    }
  }
}
