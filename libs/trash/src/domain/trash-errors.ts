import { ConflictError, DomainError, NotFoundError, type TrashKind } from '@workbase/shared/kernel';

export function trashItemNotFound(kind: TrashKind, id: string): NotFoundError {
  return new NotFoundError(`No item with ID "${id}" is in the trash of ${kind}.`, { field: 'id' });
}

/** A saved unique value a live record holds now: 409 `uniqueness_conflict`, as a write of it would be. */
export function restoreConflict(holder: { attributeSlug: string; recordId: string }): ConflictError {
  return new ConflictError(
    'uniqueness_conflict',
    `The value of unique attribute "${holder.attributeSlug}" now belongs to record ${holder.recordId}; change or delete that value, then restore again.`,
    { attribute: holder.attributeSlug, conflicting_record_id: holder.recordId },
  );
}

/** What the item hangs off is gone (deleted, or itself in the trash): restore that first. */
export function restoreParentMissing(what: string): DomainError {
  return new DomainError('precondition_failed', `The item cannot be restored: ${what} no longer exists (restore it from the trash first).`);
}
