export * as FileSystemBlobStore from "./FileSystemBlobStore.js"
export * as S3BlobStore from "./S3BlobStore.js"
export * as SigV4 from "./SigV4.js"
