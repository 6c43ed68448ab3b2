/**
 * `make` remembered for the last object it was called with: a statement's rows mostly share one
 * object (a batch's events share their actor), so its texts are made once, not once per row.
 */
export function rememberLast<T extends object, R>(make: (of: T) => R): (of: T) => R {
  let last: { of: T; made: R } | null = null;
  return (of) => {
    if (last?.of !== of) last = { of, made: make(of) };
    return last.made;
  };
}
