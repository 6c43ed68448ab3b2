export { TasksModule } from './tasks.module';
export { MergeRecordTasksListener } from './application/merge-record-tasks.listener';
export { TASK_EVENTS } from './application/tasks.events';
export { TASK_CONTENT_MAX_LENGTH } from './domain/task';
