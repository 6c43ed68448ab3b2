import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** One labelled series of the request histogram. */
interface Observer {
  observe(seconds: number): void;
}

/** What the pg pool behind TypeORM exposes; read, never changed. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Prometheus metrics of one API process: process and Node.js runtime defaults, request durations
 * by route template (never by concrete path: ids would explode the label set), and the database
 * pool. A registry per app, so that several apps in one process (the tests) do not collide.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(dataSource: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    this.registry.setDefaultLabels({ service: 'workbase' });
    collectDefaultMetrics({ register: this.registry, prefix: 'workbase_' });
    this.requestDuration = new Histogram({
      name: 'workbase_http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const pool = () => (dataSource.driver as unknown as { master?: PoolCounts }).master;
    new Gauge({
      name: 'workbase_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const counts = pool();
        if (!counts) return;
        this.set({ state: 'total' }, counts.totalCount);
        this.set({ state: 'idle' }, counts.idleCount);
        this.set({ state: 'waiting' }, counts.waitingCount);
      },
    });
    new Gauge({ name: 'workbase_db_pool_size', help: 'Configured database pool size', registers: [this.registry] }).set(config.dbPoolSize);
  }

  /**
   * Express middleware: times every request and labels it once the route is known. The labelled
   * child of each (method, route, status) is made once and kept: prom-client would otherwise
   * hash the label set on every observation.
   */
  httpMiddleware() {
    const series = new Map<string, Observer>();
    const seriesOf = (method: string, route: string, status: number): Observer => {
      const key = `${method} ${status} ${route}`;
      let child = series.get(key);
      if (!child) {
        child = this.requestDuration.labels(method, route, String(status));
        series.set(key, child);
      }
      return child;
    };
    return (req: Request, res: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const template = (req.route as { path?: string } | undefined)?.path;
        const route = template ? `${req.baseUrl}${template}` : 'unmatched';
        seriesOf(req.method, route, res.statusCode).observe(Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    };
  }
}
