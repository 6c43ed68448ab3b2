// The trash's front door: the module (which binds the kernel's TRASH_BIN), the worker's
// retention module and its sweep.
export { TrashModule, TrashRetentionModule } from './trash.module';
export { TrashRetention } from './application/trash-retention';
