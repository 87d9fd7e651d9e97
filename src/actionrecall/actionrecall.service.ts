import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';
import { GetActionInfoRequest, GetActionInfoResponse } from './actionrecall.types';

/** Action recall (placeholder until the feature lands). */
@Injectable()
export class ActionRecallService {
  getActionInfo(_request: GetActionInfoRequest): Promise<GetActionInfoResponse> {
    throw new AppException(PublicErrors.NotImplemented, 'action recall is being built');
  }
}
