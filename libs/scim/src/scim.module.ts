import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { ScimGroupsService } from './application/scim-groups.service';
import { ScimUsersService } from './application/scim-users.service';
import { ScimGroupRepository } from './infrastructure/scim-group.repository';
import { ScimUserRepository } from './infrastructure/scim-user.repository';
import { ScimDiscoveryController } from './interface/http/scim-discovery.controller';
import { ScimGroupsController } from './interface/http/scim-groups.controller';
import { ScimUnsupportedMiddleware } from './interface/http/scim-unsupported.middleware';
import { ScimUsersController } from './interface/http/scim-users.controller';

/** SCIM 2.0 provisioning of members (Users) and teams (Groups) under /scim/v2. */
@Module({
  controllers: [ScimDiscoveryController, ScimUsersController, ScimGroupsController],
  providers: [ScimUserRepository, ScimGroupRepository, ScimUsersService, ScimGroupsService],
})
export class ScimModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ScimUnsupportedMiddleware).forRoutes({ path: 'scim/v2/*path', method: RequestMethod.ALL });
  }
}
