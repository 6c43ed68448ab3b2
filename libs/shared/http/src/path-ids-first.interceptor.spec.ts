import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { ConflictError, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { firstValueFrom, of, throwError } from 'rxjs';
import type { AuthContext } from './auth-context';
import { PathIdsFirstInterceptor, type PathParams } from './path-ids-first.interceptor';

class Controller {
  readonly calls: PathParams[] = [];
  constructor(private readonly outcome: () => Promise<void>) {}
  async resolvePathIds(_: AuthContext, params: PathParams): Promise<void> {
    this.calls.push(params);
    await this.outcome();
  }
}

const auth = { workspaceId: 'w1' } as AuthContext;

function run(controller: object | null, failure: unknown, params: Record<string, string> = { object: 'people' }): Promise<unknown> {
  const modules = {
    get: () => {
      if (controller === null) throw new Error('Nest could not find Controller element');
      return controller;
    },
  } as unknown as ModuleRef;
  const context = {
    getType: () => 'http',
    getClass: () => Controller,
    switchToHttp: () => ({ getRequest: () => ({ params, user: auth }) }),
  } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => (failure === undefined ? of('answer') : throwError(() => failure)) };
  return firstValueFrom(new PathIdsFirstInterceptor(modules).intercept(context, next));
}

describe('PathIdsFirstInterceptor', () => {
  const badBody = new ValidationError('data: must be an object');

  it('answers the lookup\'s 404 when a 400 came for a path whose id is not the caller\'s', async () => {
    const notFound = new NotFoundError('Object "people" not found.');
    const controller = new Controller(() => Promise.reject(notFound));
    await expect(run(controller, badBody)).rejects.toBe(notFound);
    expect(controller.calls).toEqual([{ object: 'people' }]);
  });

  it('keeps the 400 when the path\'s ids resolve, or when the lookup fails otherwise than with a 404', async () => {
    await expect(run(new Controller(() => Promise.resolve()), badBody)).rejects.toBe(badBody);
    await expect(run(new Controller(() => Promise.reject(new Error('boom'))), badBody)).rejects.toBe(badBody);
    await expect(run(new Controller(() => Promise.reject(new ValidationError('wrong type'))), badBody)).rejects.toBe(badBody);
  });

  it('looks nothing up for an answer, another failure than a 400, or a route without path parameters', async () => {
    const controller = new Controller(() => Promise.reject(new NotFoundError('x')));
    await expect(run(controller, undefined)).resolves.toBe('answer');
    const conflict = new ConflictError('slug_conflict', 'taken');
    await expect(run(controller, conflict)).rejects.toBe(conflict);
    await expect(run(controller, badBody, {})).rejects.toBe(badBody);
    expect(controller.calls).toEqual([]);
  });

  it('keeps the 400 that names a path parameter holding U+0000 (nothing to look up)', async () => {
    const controller = new Controller(() => Promise.reject(new NotFoundError('x')));
    const nul = new ValidationError('object must not contain the NUL character (U+0000).', { field: 'object' });
    await expect(run(controller, nul, { object: 'peo\u0000ple' })).rejects.toBe(nul);
    expect(controller.calls).toEqual([]);
  });

  it('keeps the 400 of a controller that does not resolve path ids, or that the container does not know', async () => {
    await expect(run({}, badBody)).rejects.toBe(badBody);
    await expect(run(null, badBody)).rejects.toBe(badBody);
  });
});
