import { CkbState } from '../ckb.types';

/** Where the CKB state lives so several processes agree on it (a file by default, Redis when configured). */
export abstract class CkbStateStore {
  /** The last written state, or the unknown state when none (or an unreadable one) exists. */
  abstract read(): Promise<CkbState>;
  abstract write(state: CkbState): Promise<void>;
  abstract close(): Promise<void>;
}
