// class-transformer ships this module's code under cjs/ and its types under types/; readme-coverage.spec reads it.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
