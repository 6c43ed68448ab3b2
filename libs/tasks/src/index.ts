export { TasksModule } from './tasks.module';
export { TASK_EVENTS } from './application/tasks.events';
export { TASK_CONTENT_MAX_LENGTH } from './domain/task';
