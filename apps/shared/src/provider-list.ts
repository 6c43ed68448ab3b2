import type { Provider, Type } from '@nestjs/common';

/** A provider of `token` whose value is the instances of `classes`, in that order (what one context calls on the others). */
export function providerList<T>(token: string | symbol, classes: Type<T>[]): Provider {
  return { provide: token, inject: classes, useFactory: (...instances: T[]) => instances };
}
