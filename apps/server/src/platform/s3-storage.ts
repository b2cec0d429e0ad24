import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

import { type ObjectStorage, assertStorageKey, isStorageKey } from './storage';

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** MinIO, Ceph, R2…: the S3-compatible endpoint; unset = AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

/** Images in an S3-compatible bucket: private objects, server-side encryption requested. */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  return {
    async put(key, bytes) {
      assertStorageKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: bytes,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async get(key) {
      assertStorageKey(key);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: key }),
        );
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    async getRange(key, start, end) {
      assertStorageKey(key);
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket: options.bucket,
            Key: key,
            Range: `bytes=${start}-${end}`,
          }),
        );
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    async delete(key) {
      assertStorageKey(key);
      // S3 answers 204 for a key that is not there: deleting twice is no error (retries rely on it).
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: options.bucket,
            Prefix: prefix,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? [])
          if (object.Key && isStorageKey(object.Key)) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
