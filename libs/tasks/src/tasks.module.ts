import { MergeRecordTasksListener } from './application/merge-record-tasks.listener';
import { Module } from '@nestjs/common';
import { RecordsModule } from '@workbase/records';
import { TaskCommands } from './application/task.commands';
import { TaskReferences } from './application/task-references';
import { TaskQueries } from './application/task.queries';
import { TaskRepository } from './infrastructure/task.repository';
import { TasksController } from './interface/http/tasks.controller';

/** Tasks: linked to records, assigned to workspace members; CRUD and task events. */
@Module({
  imports: [RecordsModule],
  controllers: [TasksController],
  providers: [TaskRepository, TaskReferences, TaskCommands, TaskQueries, MergeRecordTasksListener],
  exports: [MergeRecordTasksListener],
})
export class TasksModule {}
