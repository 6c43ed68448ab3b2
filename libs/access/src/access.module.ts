import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkspaceMemberQueries } from './application/workspace-member.queries';
import { AccessTokenVerifier } from '@workbase/shared/http';
import { CreateMemberUseCase } from './application/create-member.use-case';
import { CreateWorkspaceUseCase } from './application/create-workspace.use-case';
import { IssueTokenUseCase } from './application/issue-token.use-case';
import { RevokeTokenUseCase } from './application/revoke-token.use-case';
import { SetMemberPasswordUseCase } from './application/set-member-password.use-case';
import { TokenIntrospectionQuery } from './application/token-introspection.query';
import { MemberDirectory } from './application/member.directory';
import { MemberProvisioning } from './application/member-provisioning';
import { WorkspaceLookup } from './application/workspace-lookup';
import { ApiTokenOrmEntity } from './infrastructure/api-token.orm-entity';
import { ApiTokenRepository } from './infrastructure/api-token.repository';
import { TokenGrantCache } from './infrastructure/token-grant.cache';
import { WorkspaceMemberOrmEntity } from './infrastructure/workspace-member.orm-entity';
import { WorkspaceMemberRepository } from './infrastructure/workspace-member.repository';
import { WorkspaceOrmEntity } from './infrastructure/workspace.orm-entity';
import { WorkspaceRepository } from './infrastructure/workspace.repository';
import { SelfController } from './interface/http/self.controller';
import { WorkspaceMembersController } from './interface/http/workspace-members.controller';

const useCases = [
  CreateWorkspaceUseCase,
  CreateMemberUseCase,
  SetMemberPasswordUseCase,
  IssueTokenUseCase,
  RevokeTokenUseCase,
  TokenIntrospectionQuery,
  WorkspaceLookup,
  MemberProvisioning,
  MemberDirectory,
];

/** Workspaces, members and access tokens; the verifier every request's guard relies on. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([WorkspaceOrmEntity, WorkspaceMemberOrmEntity, ApiTokenOrmEntity])],
  controllers: [SelfController, WorkspaceMembersController],
  providers: [
    WorkspaceRepository,
    WorkspaceMemberRepository,
    ApiTokenRepository,
    TokenGrantCache,
    WorkspaceMemberQueries,
    ...useCases,
    { provide: AccessTokenVerifier, useExisting: TokenIntrospectionQuery },
  ],
  exports: [...useCases, AccessTokenVerifier],
})
export class AccessModule {}
