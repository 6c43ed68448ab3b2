import { Injectable } from '@nestjs/common';

/**
 * Whether this process still wants new traffic. On SIGTERM `main.ts` drains it: readiness answers
 * 503 (load balancers stop routing here), responses carry `Connection: close` (keep-alive clients
 * move to another replica), and only then does the HTTP server stop accepting connections.
 */
@Injectable()
export class Readiness {
  private drainingSince: Date | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  drain(): void {
    this.drainingSince ??= new Date();
  }
}
