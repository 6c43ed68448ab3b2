export { SqlModule } from './sql.module';
export { SqlQueryService, type SqlCaller } from './application/sql-query.service';
export { analyzeStatement, loadSqlParser, type AnalyzedStatement } from './domain/statement-analyzer';
